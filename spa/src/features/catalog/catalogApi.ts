import { createResourceApi } from '@/components/resource';
import type { ApiBody, ApiData, PageItem } from '@/lib/api/types';

export type Product = PageItem<'/api/product/products'>;
export type ProductCreate = ApiBody<'/api/product/products', 'post'>;
export type ProductUpdate = ApiBody<'/api/product/products/{id}', 'put'>;

export const productsApi = createResourceApi<Product, ProductCreate, ProductUpdate>({
  key: 'product',
  tag: 'Product',
  listPath: '/product/products',
  exportPath: '/product/products/export',
  importPath: '/product/products/import',
  itemPath: (id) => `/product/products/${id}`,
});

// Categories and sub-categories: the spec's client reads them whole (GET …/all).
export type Category = ApiData<'/api/product-category/all', 'get'>[number];
export type CategoryCreate = ApiBody<'/api/product-category', 'post'>;
export type CategoryUpdate = ApiBody<'/api/product-category/{id}', 'put'>;

export const categoriesApi = createResourceApi<Category, CategoryCreate, CategoryUpdate>({
  key: 'productCategory',
  tag: 'ProductCategory',
  listKind: 'all',
  listPath: '/product-category/all',
  createPath: '/product-category',
  itemPath: (id) => `/product-category/${id}`,
  invalidates: ['ProductSubCategory', 'Product'],
});

export type SubCategory = ApiData<'/api/product-sub-category/all', 'get'>[number];
export type SubCategoryCreate = ApiBody<'/api/product-sub-category', 'post'>;
export type SubCategoryUpdate = ApiBody<'/api/product-sub-category/{id}', 'put'>;

export const subCategoriesApi = createResourceApi<SubCategory, SubCategoryCreate, SubCategoryUpdate>({
  key: 'productSubCategory',
  tag: 'ProductSubCategory',
  listKind: 'all',
  listPath: '/product-sub-category/all',
  createPath: '/product-sub-category',
  itemPath: (id) => `/product-sub-category/${id}`,
  invalidates: ['Product'],
});

/** The spec's sentences (section 5), the same words the server answers with. */
export const MSG = {
  missingRequired: 'Missing required fields',
  missingName: 'Missing required field: name',
  missingCategoryId: 'Missing required field: category_id',
} as const;

export const SOLD_AS = ['gallon', 'litre', 'quart', 'each', 'case', 'box', 'pail', 'drum', 'tote', 'pound', 'kilogram'] as const;
export type SoldAs = (typeof SOLD_AS)[number];
export const SOLD_AS_OPTIONS = SOLD_AS.map((u) => ({ value: u, label: u[0].toUpperCase() + u.slice(1) }));

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && !v.trim());

/** Product add/update: name, code and sold_as are required ('Missing required fields'). */
export function productFormProblem(v: { name: string; code: string; sold_as: string | null }): string | null {
  return [v.name, v.code, v.sold_as].some(blank) ? MSG.missingRequired : null;
}

/** Category add: 'Missing required field: name'. */
export function categoryFormProblem(v: { name: string }): string | null {
  return blank(v.name) ? MSG.missingName : null;
}

/** Sub-category add: name, then category_id. */
export function subCategoryFormProblem(v: { name: string; category_id: number | null }): string | null {
  if (blank(v.name)) return MSG.missingName;
  if (blank(v.category_id)) return MSG.missingCategoryId;
  return null;
}
