import ArrowBack from '@mui/icons-material/ArrowBack';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PublishedWithChanges from '@mui/icons-material/PublishedWithChanges';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { FormDialog, StatusChip } from '@/components/resource';
import type { ApiError } from '@/lib/api/errors';
import { usePaymentMethodOptions, usePaymentTermOptions, usePermissions } from '@/lib/api/lookups';
import { customerBody, customerFields, customerToValues, money } from './customerForm';
import { CUSTOMER_STATUSES, customersApi, useCustomerByIdQuery, useCustomerStatusMutation, type Customer, type CustomerStatus } from './partiesApi';
import { SiteConstraintsList } from '@/components/routing/SiteConstraintsList';
import { ShipTosSection } from './ShipTosSection';
import { StatusDialog } from './StatusDialog';
import { TanksSection } from './TanksSection';
import { CustomerPricingSection } from './CustomerPricingSection';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Typography>
    </Box>
  );
}

function Summary({ c }: { c: Customer }) {
  const terms = usePaymentTermOptions();
  const methods = usePaymentMethodOptions();
  const label = (opts: { value: number; label: string }[], id: number | null) => (id ? (opts.find((o) => o.value === id)?.label ?? `#${id}`) : '');
  const address = [c.address_one, c.address_two, [c.city?.name, c.state?.code, c.zip_code].filter(Boolean).join(' ')].filter(Boolean);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2.5, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }} data-testid="customer-summary">
      <Fact label="Billing address">{address.map((l) => <div key={l}>{l}</div>)}</Fact>
      <Fact label="Contact">{[c.phone, c.email].filter(Boolean).map((l) => <div key={l}>{l}</div>)}</Fact>
      <Fact label="Company type">{c.company_type?.company_type}</Fact>
      <Fact label="Credit limit">{c.credit_limit === null ? 'No limit' : money(c.credit_limit)}</Fact>
      <Fact label="Payment term">{label(terms.options, c.payment_term_id)}</Fact>
      <Fact label="Payment method">{label(methods.options, c.payment_method_id)}</Fact>
      <Fact label="Tax">{c.tax_exempt ? <Chip size="small" color="primary" variant="outlined" label={`Exempt · ${c.tax_exempt_certificate || 'no certificate'}${c.tax_exempt_expires ? ` · until ${c.tax_exempt_expires}` : ''}`} /> : 'Taxable'}</Fact>
      <Fact label="Notes">{c.notes}</Fact>
    </Paper>
  );
}

export default function CustomerDetailPage() {
  const { id: rawId } = useParams();
  const id = /^\d+$/.test(rawId ?? '') ? Number(rawId) : 0;
  const q = useCustomerByIdQuery(id, { skip: !id });
  const [update] = customersApi.useUpdate();
  const [setStatus] = useCustomerStatusMutation();
  const [editing, setEditing] = useState(false);
  const [changing, setChanging] = useState(false);
  const [shipToId, setShipToId] = useState<number | null>(null);
  const perms = usePermissions('customer');
  const sitePerms = usePermissions('site_constraint');
  const c = q.data;
  const error = q.error as ApiError | undefined;

  const back = (
    <Button component={RouterLink} to="/customer" startIcon={<ArrowBack />} size="small" sx={{ mb: 1 }}>
      Customers
    </Button>
  );

  if (!id || error) {
    return (
      <PageBody>
        {back}
        <Alert severity="error" action={id ? <Button color="inherit" size="small" onClick={() => q.refetch()}>Retry</Button> : undefined}>
          {!id || error?.status === 404 ? 'This customer does not exist (or was deleted).' : error?.message || 'Failed to fetch customer'}
        </Alert>
      </PageBody>
    );
  }
  if (!c) {
    return (
      <PageBody>
        {back}
        <Skeleton variant="text" width={320} height={40} />
        <Skeleton variant="rounded" height={140} sx={{ my: 2 }} aria-label="Loading customer" />
        <Skeleton variant="rounded" height={260} />
      </PageBody>
    );
  }

  return (
    <PageBody>
      {back}
      <PageHeader
        title={c.name}
        subtitle={
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <span>Account {c.account_number}</span>
            <StatusChip value={c.status} styles={CUSTOMER_STATUSES} />
          </Box>
        }
        actions={
          perms.change ? (
            <>
              <Button variant="outlined" startIcon={<PublishedWithChanges />} onClick={() => setChanging(true)}>
                Change status
              </Button>
              <Button variant="contained" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
                Edit customer
              </Button>
            </>
          ) : undefined
        }
      />
      <Summary c={c} />
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2.5 }}>
        <ShipTosSection
          customer={c}
          onShowTanks={(s) => {
            setShipToId(s.id);
            document.getElementById('customer-tanks')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
          }}
        />
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} id="customer-tanks">
        <TanksSection customer={c} shipToId={shipToId} onShipToChange={setShipToId} />
      </Paper>
      {sitePerms.view && (
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mt: 2.5 }} id="customer-site-constraints">
          <SiteConstraintsList
            customer={{ id: c.id, name: c.name }}
            title="Delivery site constraints"
            subtitle="For the day planner: the largest truck a ship-to takes, what the truck needs there (a long hose), extra minutes on site."
          />
        </Paper>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mt: 2.5 }} id="customer-pricing">
        <CustomerPricingSection customer={c} />
      </Paper>

      {editing && (
        <FormDialog
          open
          mode="edit"
          title={`Edit ${c.name}`}
          fields={customerFields}
          initialValues={customerToValues(c)}
          maxWidth="md"
          onClose={() => setEditing(false)}
          onSubmit={async (v) => {
            await update(c.id, customerBody(v));
            toast.success('Customer updated successfully');
            setEditing(false);
          }}
        />
      )}
      {changing && (
        <StatusDialog<CustomerStatus>
          title={`Status of ${c.name}`}
          current={c.status as CustomerStatus}
          statuses={CUSTOMER_STATUSES}
          onSubmit={async (s) => {
            await setStatus({ id: c.id, status: s }).unwrap();
            toast.success(`${c.name} is now ${CUSTOMER_STATUSES[s].label.toLowerCase()}`);
          }}
          onClose={() => setChanging(false)}
        />
      )}
    </PageBody>
  );
}
