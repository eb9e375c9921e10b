import { useState } from 'react';
import { ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { ASSET_CATEGORIES, assetTypesApi, categoryLabel, type AssetType, type AssetTypeCreate, type AssetTypeUpdate } from './fleetApi';

interface AssetTypeForm {
  name: string;
  category: AssetTypeCreate['category'];
  description: string;
}

const columns: ColumnDef<AssetType>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'category', headerName: 'Category', sortField: 'category', width: 140, value: (t) => categoryLabel(t.category) },
  { field: 'description', headerName: 'Description', minWidth: 200, flex: 2, hideOnPhone: true },
];

const fields: FieldDef<AssetTypeForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, width: 8, helperText: 'e.g. Tank truck 3,000 gal' },
  { name: 'category', label: 'Category', type: 'select', required: true, width: 4, options: [...ASSET_CATEGORIES] },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 500 },
];

export default function AssetTypePage() {
  const [category, setCategory] = useState<string | null>(null);
  return (
    <ResourceListPage<AssetType, AssetTypeForm, AssetTypeCreate, AssetTypeUpdate>
      title="Asset Types"
      subtitle="Kinds of trucks, trailers and equipment in the fleet."
      singular="Asset type"
      plural="asset types"
      resource={assetTypesApi}
      permission="asset_type"
      columns={columns}
      describe={(t) => t.name}
      defaultPageSize={25}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search asset types"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'category', label: 'Category', type: 'text' },
      ]}
      toolbarExtra={<ToolbarSelect label="Category" allLabel="All categories" value={category} options={[...ASSET_CATEGORIES]} onChange={(v) => setCategory(v as string | null)} />}
      rowFilter={category ? (t) => t.category === category : undefined}
      form={{
        fields,
        emptyValues: { name: '', category: 'truck', description: '' },
        toValues: (t) => ({ name: t.name, category: t.category as AssetTypeForm['category'], description: t.description }),
        toCreateBody: (v) => ({ name: v.name.trim(), category: v.category, description: v.description.trim() }),
        toUpdateBody: (v) => ({ name: v.name.trim(), category: v.category, description: v.description.trim() }),
      }}
      deleteMessage={(t) => `This deletes the asset type ${t.name}. A type that company assets use cannot be deleted.`}
      exportFilename="asset-types"
    />
  );
}
