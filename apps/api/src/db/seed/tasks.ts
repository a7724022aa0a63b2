import { zonedToInstant, type TaskPriority, type TaskState } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';
import type { Db } from '../client.js';
import { tasks } from '../schema/index.js';

const TZ = 'America/Argentina/Buenos_Aires';

/** Days from today, and a time of day in the business time zone. */
type When = [days: number, time: string];

const TASKS: {
  titulo: string;
  descripcion?: string;
  inicio?: When;
  fin?: When;
  estado: TaskState;
  prioridad: TaskPriority;
}[] = [
  {
    titulo: 'Contar inventario del depósito',
    descripcion: 'Conteo de fin de mes: bebidas, almacén y limpieza. Anotar diferencias en la planilla.',
    inicio: [2, '08:00'],
    fin: [2, '13:00'],
    estado: 'pendiente',
    prioridad: 'alta',
  },
  {
    titulo: 'Pedir mercadería a Distribuidora Norte',
    descripcion: 'Yerba, azúcar, harina 000 y aceite. Confirmar precios antes de cerrar el pedido.',
    fin: [1, '12:00'],
    estado: 'en_progreso',
    prioridad: 'urgente',
  },
  {
    titulo: 'Pagar la boleta de luz',
    descripcion: 'Edesur, vence esta semana.',
    fin: [-1, '18:00'],
    estado: 'pendiente',
    prioridad: 'alta',
  },
  {
    titulo: 'Renovar la vidriera de la entrada',
    inicio: [5, '09:00'],
    fin: [7, '18:00'],
    estado: 'pendiente',
    prioridad: 'media',
  },
  {
    titulo: 'Limpiar heladeras exhibidoras',
    fin: [-3, '20:00'],
    estado: 'completada',
    prioridad: 'media',
  },
  {
    titulo: 'Actualizar precios de lácteos',
    descripcion: 'Aplicar la nueva lista del proveedor.',
    inicio: [0, '10:00'],
    fin: [0, '12:00'],
    estado: 'pausada',
    prioridad: 'baja',
  },
  {
    titulo: 'Capacitar al personal en el nuevo posnet',
    inicio: [10, '15:00'],
    fin: [10, '17:00'],
    estado: 'pendiente',
    prioridad: 'baja',
  },
  {
    titulo: 'Presentar declaración de Ingresos Brutos',
    fin: [-8, '23:59'],
    estado: 'cancelada',
    prioridad: 'urgente',
  },
];

/** A few realistic tasks around `today`: overdue, in progress, upcoming, finished. */
export async function seedTasks(db: Db, businessId: string, userId: string, today: string): Promise<void> {
  const at = (w?: When) => (w ? zonedToInstant(`${addDays(today, w[0])}T${w[1]}`, TZ) : null);
  await db.insert(tasks).values(
    TASKS.map((t, i) => ({
      businessId,
      titulo: t.titulo,
      descripcion: t.descripcion ?? null,
      fechaInicio: at(t.inicio),
      fechaFin: at(t.fin),
      estado: t.estado,
      prioridad: t.prioridad,
      asignadaA: i % 2 === 0 ? userId : null,
      creadaPor: userId,
      creadoEn: zonedToInstant(`${addDays(today, -TASKS.length + i)}T09:00`, TZ),
    })),
  );
}
