import type { CustomerInput, SubscriptionFrequency, SubscriptionState } from '@mostrador/shared';
import { customerInput } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';
import { createCategory } from '../../modules/categories/categories.service.js';
import { createCustomer } from '../../modules/customers/customers.service.js';
import { adjustStock, createProduct } from '../../modules/products/products.service.js';
import { createService } from '../../modules/services/services.service.js';
import { createSubscription, setState } from '../../modules/subscriptions/subscriptions.service.js';
import type { Db } from '../client.js';

/** Demo customer as the demo seed lists them (camelCase document fields). */
export interface DemoCustomer {
  nombre: string;
  apellido?: string | null;
  email?: string;
  telefono?: string;
  documentoTipo?: string;
  documentoNumero?: string;
  condicionIva?: string;
}

const CATEGORIES = [
  { nombre: 'Almacén', descripcion: 'Secos: yerba, azúcar, harinas, fideos, arroz y conservas.' },
  { nombre: 'Bebidas', descripcion: 'Gaseosas, aguas, jugos, vinos y cervezas.' },
  { nombre: 'Lácteos', descripcion: 'Leche, yogures, quesos y manteca.' },
  { nombre: 'Limpieza', descripcion: 'Limpieza del hogar y perfumería.' },
  { nombre: 'Kiosco', descripcion: 'Golosinas, galletitas y snacks.' },
  { nombre: 'Servicios', descripcion: 'Envíos y armado de pedidos.' },
  { nombre: 'Temporada', descripcion: 'Productos de fiestas y temporada.', activo: false },
];

type P = [
  nombre: string,
  codigo: string,
  barras: string | null,
  categoria: string,
  costo: number,
  precio: number,
  stock: number,
  minimo: number,
  unidad?: string,
];

const PRODUCTS: P[] = [
  ['Yerba mate Playadito 1 kg', 'YER001', '7790387000019', 'Almacén', 2800, 4000, 35, 10],
  ['Yerba mate Taragüí 500 g', 'YER002', '7790387000026', 'Almacén', 1500, 2200, 6, 8],
  ['Azúcar Ledesma 1 kg', 'AZU001', '7790150000014', 'Almacén', 850, 1200, 40, 12],
  ['Harina 000 Blancaflor 1 kg', 'HAR001', '7790070000011', 'Almacén', 700, 990, 18, 10],
  ['Fideos tirabuzón Matarazzo 500 g', 'FID001', '7790070000028', 'Almacén', 900, 1350, 24, 10],
  ['Arroz largo fino Gallo 1 kg', 'ARR001', '7790070000035', 'Almacén', 1300, 1890, 3, 6],
  ['Aceite de girasol Natura 1,5 l', 'ACE001', '7790060000016', 'Almacén', 2600, 3650, 12, 6],
  ['Dulce de leche La Serenísima 400 g', 'DDL001', '7790742000019', 'Lácteos', 1700, 2450, 9, 4],
  ['Leche entera 1 l', 'LEC001', '7790742000026', 'Lácteos', 950, 1300, 30, 12],
  ['Queso cremoso por kg', 'QUE001', null, 'Lácteos', 6500, 9800, 4.35, 2, 'kg'],
  ['Yogur bebible frutilla 1 l', 'YOG001', '7790742000033', 'Lácteos', 1200, 1750, 0, 4],
  ['Coca-Cola 2,25 l', 'BEB001', '7790895000010', 'Bebidas', 2100, 3100, 48, 12],
  ['Agua mineral Villavicencio 2 l', 'BEB002', '7790895000027', 'Bebidas', 700, 1100, 36, 12],
  ['Fernet Branca 750 ml', 'BEB003', '7790290000011', 'Bebidas', 9800, 13500, 8, 4],
  ['Vino Malbec Alamos 750 ml', 'BEB004', '7790290000028', 'Bebidas', 5200, 7900, 15, 6],
  ['Cerveza Quilmes 1 l', 'BEB005', '7790290000035', 'Bebidas', 1400, 2100, 2, 12],
  ['Lavandina Ayudín 1 l', 'LIM001', '7790520000012', 'Limpieza', 650, 980, 20, 6],
  ['Detergente Magistral 500 ml', 'LIM002', '7790520000029', 'Limpieza', 1500, 2300, 11, 6],
  ['Papel higiénico Higienol x4', 'LIM003', '7790520000036', 'Limpieza', 1600, 2400, 14, 8],
  ['Alfajor Jorgito chocolate', 'KIO001', '7790040000015', 'Kiosco', 350, 600, 60, 24],
  ['Galletitas Oreo 118 g', 'KIO002', '7790040000022', 'Kiosco', 900, 1400, 22, 10],
  ['Chicles Beldent menta', 'KIO003', '7790040000039', 'Kiosco', 300, 500, 45, 20],
  ['Pan dulce con frutas 500 g', 'TEM001', null, 'Almacén', 3500, 5500, 0, 0],
];

const SERVICES = [
  { nombre: 'Envío a domicilio', precio: 150000, costo: 80000, duracion_minutos: 45, categoria: 'Servicios' },
  {
    nombre: 'Armado de canasta de regalo',
    precio: 500000,
    costo: 150000,
    duracion_minutos: 30,
    categoria: 'Servicios',
  },
  {
    nombre: 'Caja mensual de almacén',
    precio: 4500000,
    costo: 3200000,
    duracion_minutos: null,
    categoria: 'Servicios',
  },
];

/**
 * The demo business's catalogue and customer book: categories, products with their stock
 * history, services, customers and their subscriptions, all written through the same functions
 * as the API so stock movements and audit rows are there too.
 */
export async function seedInventory(
  db: Db,
  businessId: string,
  userId: string,
  demoCustomers: readonly DemoCustomer[],
  today: string,
) {
  const cats = new Map<string, string>();
  for (const c of CATEGORIES) {
    const created = await createCategory(db, businessId, userId, c);
    cats.set(c.nombre, created.id);
  }

  for (const [nombre, codigo, barras, categoria, costo, precio, stock, minimo, unidad] of PRODUCTS) {
    const p = await createProduct(db, businessId, userId, {
      nombre,
      codigo,
      codigo_barras: barras,
      precio_compra: costo * 100,
      precio_venta: precio * 100,
      stock_actual: Math.round(stock * 1000),
      stock_minimo: minimo * 1000,
      unidad: unidad ?? 'unidad',
      categoria_id: cats.get(categoria),
      activo: codigo !== 'TEM001',
    });
    if (codigo === 'YER001') await adjustStock(db, businessId, userId, p.id, { cantidad: -2000, motivo: 'Rotura' });
    if (codigo === 'BEB001') {
      await adjustStock(db, businessId, userId, p.id, { cantidad: 6000, motivo: 'Recuento de inventario' });
    }
  }

  const services = new Map<string, string>();
  for (const s of SERVICES) {
    const created = await createService(db, businessId, userId, {
      nombre: s.nombre,
      precio: s.precio,
      costo: s.costo,
      duracion_minutos: s.duracion_minutos,
      categoria_id: cats.get(s.categoria),
    });
    services.set(s.nombre, created.id);
  }

  const customerIds: string[] = [];
  for (const c of demoCustomers) {
    const input: CustomerInput = {
      nombre: c.nombre,
      apellido: c.apellido ?? null,
      email: c.email,
      telefono: c.telefono,
      documento_tipo: c.documentoTipo,
      documento_numero: c.documentoNumero,
      condicion_iva: c.condicionIva,
    };
    const created = await createCustomer(db, businessId, userId, customerInput.parse(input));
    customerIds.push(created.id);
  }

  const subs: {
    cliente: number;
    servicio?: string;
    nombre?: string;
    precio?: number;
    frecuencia: SubscriptionFrequency;
    inicio: number;
    estado?: SubscriptionState;
  }[] = [
    { cliente: 0, servicio: 'Caja mensual de almacén', frecuencia: 'mensual', inicio: -40 },
    { cliente: 2, servicio: 'Envío a domicilio', frecuencia: 'semanal', inicio: -20, estado: 'pausada' },
    { cliente: 3, nombre: 'Reparto mayorista mensual', precio: 2500000, frecuencia: 'mensual', inicio: -90 },
    { cliente: 4, servicio: 'Caja mensual de almacén', frecuencia: 'trimestral', inicio: -200, estado: 'cancelada' },
  ];
  for (const s of subs) {
    if (!customerIds[s.cliente]) continue;
    const created = await createSubscription(
      db,
      businessId,
      userId,
      {
        cliente_id: customerIds[s.cliente],
        servicio_id: s.servicio ? services.get(s.servicio) : undefined,
        nombre: s.nombre,
        precio: s.precio,
        frecuencia: s.frecuencia,
        fecha_inicio: addDays(today, s.inicio),
      },
      today,
    );
    if (s.estado) await setState(db, businessId, userId, created.id, s.estado, today);
  }
}
