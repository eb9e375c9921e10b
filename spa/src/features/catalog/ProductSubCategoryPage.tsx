import { useState } from 'react';
import { ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { useProductCategoryOptions } from '@/lib/api/lookups';
import { subCategoriesApi, subCategoryFormProblem, type SubCategory, type SubCategoryCreate, type SubCategoryUpdate } from './catalogApi';

interface SubCategoryForm {
  name: string;
  category_id: number | null;
  description: string;
}

const columns: ColumnDef<SubCategory>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 180 },
  { field: 'category', headerName: 'Category', sortField: 'category', minWidth: 160, value: (s) => s.category?.name ?? '' },
  { field: 'description', headerName: 'Description', minWidth: 220, flex: 2, hideOnPhone: true },
];

const fields: FieldDef<SubCategoryForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 6 },
  { name: 'category_id', label: 'Category', type: 'select', required: true, width: 6, useOptions: () => useProductCategoryOptions() },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 500 },
];

const body = (v: SubCategoryForm) => ({ name: v.name.trim(), category_id: v.category_id, description: v.description.trim() });

export default function ProductSubCategoryPage() {
  const categories = useProductCategoryOptions();
  const [categoryId, setCategoryId] = useState<number | null>(null);
  return (
    <ResourceListPage<SubCategory, SubCategoryForm, SubCategoryCreate, SubCategoryUpdate>
      title="Product Sub-Categories"
      subtitle="Finer groups within a category, e.g. Diesel and Gasoline under Fuel."
      singular="Sub-category"
      plural="sub-categories"
      resource={subCategoriesApi}
      permission="product_sub_category"
      columns={columns}
      describe={(s) => s.name}
      defaultPageSize={100}
      defaultSort={{ field: 'category', order: 'asc' }}
      searchPlaceholder="Search sub-categories"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'category', label: 'Category', type: 'text' },
      ]}
      toolbarExtra={<ToolbarSelect label="Category" allLabel="All categories" value={categoryId} options={categories.options} loading={categories.loading} onChange={(v) => setCategoryId(v as number | null)} />}
      rowFilter={categoryId ? (s) => s.category_id === categoryId : undefined}
      form={{
        fields,
        emptyValues: { name: '', category_id: categoryId, description: '' },
        toValues: (s) => ({ name: s.name, category_id: s.category_id, description: s.description }),
        toCreateBody: body,
        toUpdateBody: body,
        validate: subCategoryFormProblem,
      }}
      deleteMessage={(s) => `This deletes the sub-category ${s.name}. A sub-category that products use cannot be deleted.`}
      exportFilename="product-sub-categories"
    />
  );
}
