import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ResourceListPage, ToolbarSelect, numOrNull, type ColumnDef, type FieldDef } from '@/components/resource';
import { useProductOptions, useSupplierOptions } from '@/lib/api/lookups';
import { aliasesApi, type Alias, type AliasCreate, type AliasUpdate } from './partiesApi';
import { SupplierTabs } from './SupplierTabs';

interface AliasForm {
  supplier_id: number | null;
  alias_name: string;
  alias_code: string;
  product_id: number | null;
}

const columns: ColumnDef<Alias>[] = [
  { field: 'supplier', headerName: 'Supplier', sortField: 'supplier', minWidth: 180, value: (a) => a.supplier?.name ?? '' },
  { field: 'alias_name', headerName: 'Their name', sortField: 'alias_name', minWidth: 180, flex: 2 },
  { field: 'alias_code', headerName: 'Their code', sortField: 'alias_code', width: 110, hideOnPhone: true },
  { field: 'product', headerName: 'Our product', sortField: 'product', minWidth: 200, flex: 2, value: (a) => (a.product ? `${a.product.name} (${a.product.code})` : '') },
];

const fields: FieldDef<AliasForm>[] = [
  { name: 'supplier_id', label: 'Supplier', type: 'select', required: true, useOptions: () => useSupplierOptions() },
  { name: 'alias_name', label: 'Name on their bills and quotes', required: true, maxLength: 200, width: 8 },
  { name: 'alias_code', label: 'Their code', maxLength: 50, width: 4 },
  { name: 'product_id', label: 'Our product', type: 'combobox', required: true, useOptions: () => useProductOptions() },
];

const body = (v: AliasForm) => ({ supplier_id: v.supplier_id!, alias_name: v.alias_name.trim(), alias_code: v.alias_code.trim(), product_id: v.product_id! });

export default function SupplierAliasesPage() {
  const suppliers = useSupplierOptions();
  const [params] = useSearchParams();
  const [supplierId, setSupplierId] = useState<number | null>(numOrNull(params.get('supplier_id')));
  return (
    <ResourceListPage<Alias, AliasForm, AliasCreate, AliasUpdate>
      title="Supplier Product Aliases"
      subtitle="The names suppliers use for your products on bills and price quotes."
      singular="Alias"
      plural="aliases"
      resource={aliasesApi}
      permission="supplier_product_alias"
      columns={columns}
      describe={(a) => a.alias_name}
      defaultPageSize={50}
      defaultSort={{ field: 'id', order: 'asc' }}
      searchPlaceholder="Search aliases, products, suppliers"
      headerContent={<SupplierTabs />}
      filters={[
        { field: 'alias_name', label: 'Their name', type: 'text' },
        { field: 'alias_code', label: 'Their code', type: 'text' },
        { field: 'product', label: 'Our product', type: 'text' },
      ]}
      extraParams={{ supplier_id: supplierId ?? undefined }}
      toolbarExtra={<ToolbarSelect label="Supplier" allLabel="All suppliers" value={supplierId} options={suppliers.options} loading={suppliers.loading} onChange={(v) => setSupplierId(v as number | null)} />}
      form={{
        fields,
        emptyValues: { supplier_id: supplierId, alias_name: '', alias_code: '', product_id: null },
        toValues: (a) => ({ supplier_id: a.supplier_id, alias_name: a.alias_name, alias_code: a.alias_code, product_id: a.product_id }),
        toCreateBody: body,
        toUpdateBody: body,
      }}
      exportFilename="supplier-product-aliases"
    />
  );
}
