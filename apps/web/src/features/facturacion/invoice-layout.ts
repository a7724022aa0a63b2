// The layout of a printed comprobante lives in shared: the API prints it too (issue 35).
export * from '@mostrador/shared/factura-layout';
