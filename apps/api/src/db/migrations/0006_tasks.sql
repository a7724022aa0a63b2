CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"titulo" text NOT NULL,
	"descripcion" text,
	"fecha_inicio" timestamp with time zone,
	"fecha_fin" timestamp with time zone,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"prioridad" text DEFAULT 'media' NOT NULL,
	"asignada_a" uuid,
	"creada_por" uuid,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "tasks_fechas" CHECK ("tasks"."fecha_fin" IS NULL OR "tasks"."fecha_inicio" IS NULL OR "tasks"."fecha_fin" >= "tasks"."fecha_inicio")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_asignada_a_users_id_fk" FOREIGN KEY ("asignada_a") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_creada_por_users_id_fk" FOREIGN KEY ("creada_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_business_creado_idx" ON "tasks" USING btree ("business_id","creado_en" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "tasks_asignada_idx" ON "tasks" USING btree ("business_id","asignada_a") WHERE "tasks"."asignada_a" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tasks_creada_por_idx" ON "tasks" USING btree ("business_id","creada_por");--> statement-breakpoint
CREATE INDEX "tasks_calendario_idx" ON "tasks" USING btree ("business_id",coalesce("fecha_inicio", "fecha_fin")) WHERE "tasks"."fecha_inicio" IS NOT NULL OR "tasks"."fecha_fin" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tasks_busqueda_idx" ON "tasks" USING gin (f_unaccent(lower("titulo" || ' ' || coalesce("descripcion", ''))) gin_trgm_ops);