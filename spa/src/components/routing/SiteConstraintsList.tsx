import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { useCustomerOptions, usePermissions, useShipToOptions } from '@/lib/api/lookups';
import { siteConstraintApi, type SiteConstraint, type SiteConstraintCreate, type SiteConstraintUpdate } from './siteConstraintApi';

export interface SiteConstraintForm {
  customer_id: number | null;
  ship_to_id: number | null;
  max_truck_gallons: number | null;
  skills: string;
  extra_service_minutes: number | null;
}

const SKILL = /^[A-Za-z0-9_.\- ]+$/;
export const skillsOf = (text: string) => [...new Set(text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
const gallons = (n: number) => n.toLocaleString('en-US');

/** The form's fields; with a fixed customer (the customer page) only its ship-tos are offered. */
export function siteConstraintFields(customerId?: number): FieldDef<SiteConstraintForm>[] {
  return [
    {
      name: 'customer_id', label: 'Customer', type: 'combobox', required: true, width: 6, useOptions: () => useCustomerOptions(),
      hidden: () => customerId !== undefined, disabled: (mode) => mode === 'edit', onValueChange: () => ({ ship_to_id: null }),
    },
    {
      name: 'ship_to_id', label: 'Ship-to', type: 'combobox', required: true, width: customerId === undefined ? 6 : 12, useOptions: (v) => useShipToOptions(customerId ?? v.customer_id),
      disabled: (mode, v) => mode === 'edit' || !(customerId ?? v.customer_id),
      helperText: (mode) => (mode === 'edit' ? 'To move them to another ship-to, delete these and add new ones' : customerId === undefined ? 'One set per ship-to (of the customer chosen)' : 'One set of constraints per ship-to'),
    },
    { name: 'max_truck_gallons', label: 'Largest truck (gallons)', type: 'number', min: 1, max: 100_000, step: 1, width: 6, helperText: 'Empty: any truck fits', section: 'What the planner must respect' },
    { name: 'extra_service_minutes', label: 'Extra minutes on site', type: 'number', min: 0, max: 600, step: 1, width: 6, helperText: 'Added to every stop here (gate, paperwork)' },
    {
      name: 'skills', label: 'Skills the truck needs', width: 12, maxLength: 400, placeholder: 'long hose, pump',
      helperText: "Comma-separated, the same words as on the trucks' profiles (e.g. long hose)",
      validate: (v) => {
        const bad = skillsOf(typeof v === 'string' ? v : '').find((s) => s.length > 40 || !SKILL.test(s));
        return bad ? `"${bad}": letters, digits, spaces, - _ . only (40 at most)` : null;
      },
    },
  ];
}

const toBody = (v: SiteConstraintForm) => ({ ship_to_id: v.ship_to_id!, max_truck_gallons: v.max_truck_gallons, skills: skillsOf(v.skills), extra_service_minutes: v.extra_service_minutes ?? 0 });
const updateBody = (v: SiteConstraintForm): SiteConstraintUpdate => {
  const { ship_to_id: _, ...rest } = toBody(v);
  return rest;
};

export function siteConstraintColumns(withCustomer: boolean): ColumnDef<SiteConstraint>[] {
  return [
    ...(withCustomer ? [{ field: 'customer_name', headerName: 'Customer', sortField: 'customer_name', minWidth: 150, flex: 1 } as ColumnDef<SiteConstraint>] : []),
    { field: 'ship_to_name', headerName: 'Ship-to', sortField: 'ship_to_name', minWidth: 150, flex: 1 },
    { field: 'max_truck_gallons', headerName: 'Largest truck', sortField: 'max_truck_gallons', width: 130, align: 'right', value: (s) => (s.max_truck_gallons === null ? 'any' : `${gallons(s.max_truck_gallons)} gal`) },
    { field: 'skills', headerName: 'Truck needs', minWidth: 140, flex: 1, value: (s) => s.skills.join(', ') || '—' },
    { field: 'extra_service_minutes', headerName: 'Extra time', width: 110, align: 'right', hideOnPhone: true, value: (s) => (s.extra_service_minutes ? `+${s.extra_service_minutes} min` : '—') },
  ];
}

export interface SiteConstraintsListProps {
  /** Only this customer's ship-tos (the customer page); none: every customer's (the routing settings). */
  customer?: { id: number; name: string };
  title?: string;
  subtitle?: string;
}

/**
 * Delivery site constraints (`/site-constraint`, permission `site_constraint`): hidden when the
 * user may not see them; the add/edit/delete buttons follow the kit's permission gate.
 */
export function SiteConstraintsList({ customer, title = 'Sites', subtitle }: SiteConstraintsListProps) {
  const perms = usePermissions('site_constraint');
  if (perms.known && !perms.view) return null;
  const fields = siteConstraintFields(customer?.id);
  return (
    <ResourceListPage<SiteConstraint, SiteConstraintForm, SiteConstraintCreate, SiteConstraintUpdate>
      embedded
      title={title}
      subtitle={subtitle ?? 'What a delivery site allows: the largest truck that fits, the equipment the truck needs (a long hose), extra minutes on site. The planner respects them.'}
      singular="Site constraint"
      plural="site constraints"
      resource={siteConstraintApi}
      permission="site_constraint"
      columns={siteConstraintColumns(!customer)}
      describe={(s) => (customer ? s.ship_to_name : `${s.ship_to_name} (${s.customer_name})`)}
      defaultPageSize={25}
      defaultSort={{ field: customer ? 'ship_to_name' : 'customer_name', order: 'asc' }}
      searchPlaceholder={customer ? 'Search ship-tos' : 'Search customers and ship-tos'}
      extraParams={customer ? { customer_id: customer.id } : undefined}
      gridHeight={customer ? 260 : undefined}
      exportFilename={false}
      form={{
        fields,
        emptyValues: { customer_id: customer?.id ?? null, ship_to_id: null, max_truck_gallons: null, skills: '', extra_service_minutes: 0 },
        toValues: (s) => ({ customer_id: s.customer_id, ship_to_id: s.ship_to_id, max_truck_gallons: s.max_truck_gallons, skills: s.skills.join(', '), extra_service_minutes: s.extra_service_minutes }),
        toCreateBody: toBody,
        toUpdateBody: updateBody,
      }}
    />
  );
}
