import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import { useNavigate } from 'react-router-dom';
import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { categoriesApi, categoryFormProblem, type Category, type CategoryCreate, type CategoryUpdate } from './catalogApi';

interface CategoryForm {
  name: string;
  description: string;
}

const columns: ColumnDef<Category>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 180 },
  { field: 'description', headerName: 'Description', minWidth: 220, flex: 2, hideOnPhone: true },
];

const fields: FieldDef<CategoryForm>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100 },
  { name: 'description', label: 'Description', type: 'textarea', maxLength: 500 },
];

const body = (v: CategoryForm) => ({ name: v.name.trim(), description: v.description.trim() });

export default function ProductCategoryPage() {
  const navigate = useNavigate();
  return (
    <ResourceListPage<Category, CategoryForm, CategoryCreate, CategoryUpdate>
      title="Product Categories"
      subtitle="Groups of products: fuel, DEF, lubricants, goods."
      singular="Category"
      plural="categories"
      resource={categoriesApi}
      permission="product_category"
      columns={columns}
      describe={(c) => c.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search categories"
      filters={[{ field: 'name', label: 'Name', type: 'text' }]}
      form={{ fields, emptyValues: { name: '', description: '' }, toValues: (c) => ({ name: c.name, description: c.description }), toCreateBody: body, toUpdateBody: body, validate: categoryFormProblem }}
      rowActions={(c) => [{ label: 'Products', icon: <Inventory2Outlined />, onClick: () => { navigate(`/product?category_id=${c.id}`); } }]}
      deleteMessage={(c) => `This deletes the category ${c.name}. A category that products use cannot be deleted.`}
      exportFilename="product-categories"
    />
  );
}
