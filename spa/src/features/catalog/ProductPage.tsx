import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ActiveChip, ResourceListPage, ToolbarSelect, numOrNull, type ColumnDef, type FieldDef } from '@/components/resource';
import { useProductCategoryOptions, useProductSubCategoryOptions } from '@/lib/api/lookups';
import { SOLD_AS_OPTIONS, productFormProblem, productsApi, type Product, type ProductCreate, type ProductUpdate, type SoldAs } from './catalogApi';

export interface ProductForm {
  name: string;
  code: string;
  sold_as: SoldAs | null;
  category_id: number | null;
  sub_category_id: number | null;
  unit_price: number | null;
  description: string;
  is_fuel: boolean;
  is_active: boolean;
  api_gravity: number | null;
  vcf_group: VcfGroup;
}

type VcfGroup = 'gasoline' | 'distillate' | 'jet' | 'transition' | 'none';
const VCF_GROUP_OPTIONS: { value: VcfGroup; label: string }[] = [
  { value: 'none', label: 'No correction (goods, lubes)' },
  { value: 'distillate', label: 'Diesel / fuel oils' },
  { value: 'gasoline', label: 'Gasolines' },
  { value: 'jet', label: 'Jet fuel / kerosene' },
  { value: 'transition', label: 'Transition zone' },
];

const money = (v: string | null) => (v === null || v === '' ? '' : `$${Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`);

const columns: ColumnDef<Product>[] = [
  { field: 'code', headerName: 'Code', sortField: 'code', width: 120 },
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 200, flex: 2, render: (p) => <>{p.name}{p.is_fuel && <Chip size="small" label="Fuel" color="primary" variant="outlined" sx={{ ml: 1 }} />}</> },
  { field: 'category', headerName: 'Category', sortField: 'category', minWidth: 160, hideOnPhone: true, value: (p) => [p.category?.name, p.sub_category?.name].filter(Boolean).join(' › ') },
  { field: 'sold_as', headerName: 'Sold as', sortField: 'sold_as', width: 100, hideOnPhone: true },
  { field: 'unit_price', headerName: 'List price', sortField: 'unit_price', width: 120, align: 'right', value: (p) => money(p.unit_price) },
  { field: 'is_active', headerName: 'Status', width: 100, value: (p) => (p.is_active ? 'Active' : 'Inactive'), render: (p) => <ActiveChip active={p.is_active} /> },
];

export const productFields: FieldDef<ProductForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 200, width: 8 },
  { name: 'code', label: 'Code', required: true, maxLength: 50, width: 4, helperText: 'Your item code, e.g. ULSD-CLR' },
  { name: 'sold_as', label: 'Sold as', type: 'select', required: true, width: 4, options: SOLD_AS_OPTIONS },
  { name: 'unit_price', label: 'List price ($)', type: 'number', min: 0, step: 0.0001, width: 4 },
  { name: 'is_fuel', label: 'Bulk fuel (metered)', type: 'switch', width: 4 },
  { name: 'vcf_group', label: 'Net gallons at 60 °F (table 6B group)', type: 'select', width: 8, options: VCF_GROUP_OPTIONS },
  { name: 'api_gravity', label: 'API gravity at 60 °F', type: 'number', min: 0, max: 100, step: 0.1, width: 4, helperText: 'e.g. 35.0 for diesel, 60.0 for gasoline' },
  { name: 'category_id', label: 'Category', type: 'select', width: 6, useOptions: () => useProductCategoryOptions(), onValueChange: () => ({ sub_category_id: null }) },
  { name: 'sub_category_id', label: 'Sub-category', type: 'select', width: 6, useOptions: (v) => useProductSubCategoryOptions(v.category_id), disabled: (_m, v) => !v.category_id },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 1000 },
  { name: 'is_active', label: 'Active (can be sold)', type: 'switch' },
];

export const emptyProduct: ProductForm = { name: '', code: '', sold_as: null, category_id: null, sub_category_id: null, unit_price: null, description: '', is_fuel: false, is_active: true, api_gravity: null, vcf_group: 'none' };

const body = (v: ProductForm) => ({
  name: v.name.trim(), code: v.code.trim(), sold_as: v.sold_as, category_id: v.category_id, sub_category_id: v.sub_category_id,
  unit_price: v.unit_price, description: v.description.trim(), is_fuel: v.is_fuel, is_active: v.is_active,
  api_gravity: v.api_gravity, vcf_group: v.vcf_group,
});

export default function ProductPage() {
  const [update] = productsApi.useUpdate();
  const categories = useProductCategoryOptions();
  const [params] = useSearchParams();
  const [categoryId, setCategoryId] = useState<number | null>(numOrNull(params.get('category_id')));
  return (
    <ResourceListPage<Product, ProductForm, ProductCreate, ProductUpdate>
      title="Products"
      subtitle="Fuels, DEF, lubricants and goods you sell, with their units and list prices."
      singular="Product"
      plural="products"
      resource={productsApi}
      permission="product"
      columns={columns}
      getRowId={(p) => p.products_id}
      describe={(p) => p.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name, code or description"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'code', label: 'Code', type: 'text' },
        { field: 'sold_as', label: 'Sold as', type: 'text' },
        { field: 'unit_price', label: 'List price', type: 'number' },
        { field: 'is_fuel', label: 'Bulk fuel', type: 'boolean' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ category_id: categoryId ?? undefined }}
      toolbarExtra={<ToolbarSelect label="Category" allLabel="All categories" value={categoryId} options={categories.options} loading={categories.loading} onChange={(v) => setCategoryId(v as number | null)} />}
      form={{
        fields: productFields,
        emptyValues: { ...emptyProduct, category_id: categoryId },
        toValues: (p) => ({
          name: p.name, code: p.code, sold_as: p.sold_as as SoldAs, category_id: p.category_id, sub_category_id: p.sub_category_id,
          unit_price: numOrNull(p.unit_price), description: p.description, is_fuel: p.is_fuel, is_active: p.is_active,
          api_gravity: numOrNull(p.api_gravity), vcf_group: (p.vcf_group ?? 'none') as VcfGroup,
        }),
        toCreateBody: body,
        toUpdateBody: (v, p) => ({ ...body(v), products_id: p.products_id }),
        validate: productFormProblem,
      }}
      deleteMessage={(p) => `This deletes the product ${p.name} (${p.code}). A product that tanks, aliases or orders use cannot be deleted; deactivate it instead.`}
      deleteAlternative={(p) => (p.is_active ? { label: 'Deactivate instead', run: () => update(p.products_id, { is_active: false, products_id: p.products_id }) } : undefined)}
      importHelp={<>Columns: <strong>name</strong>, <strong>code</strong>, <strong>sold_as</strong> (required), category, sub_category, description, is_fuel, is_active, unit_price.</>}
      exportFilename="products"
    />
  );
}
