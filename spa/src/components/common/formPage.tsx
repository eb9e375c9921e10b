import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { PageBody } from './PageHeader';

/**
 * The scaffold of a document's form page (`/<document>/new` and `/<document>/:id`): the record's id
 * from the route, the form loaded from the record, and what shows before the form (loading, an
 * error, an id that is not one).
 */

/** The route's `:id` as a positive integer; null on the `new` route (or an id that is not a number). */
export function useRouteId(): { rawId: string | undefined; id: number | null } {
  const { id: rawId } = useParams();
  return { rawId, id: rawId && /^\d+$/.test(rawId) ? Number(rawId) : null };
}

/** A loaded record's version: a different record, or the same one changed on the server, reloads the form. */
export const stampOf = (record: { id: number; updated_at: string }) => `${record.id}:${record.updated_at}`;

/**
 * The form of a form page. `source` names what fills it (a record's stamp and the form made from it);
 * the form is filled again only when the stamp changes, so a refetch of the version already loaded
 * never overwrites what the user typed. After a save, `loaded(stamp, form)` makes the saved row the form.
 */
export function useStampedForm<F>(empty: () => F, source: { stamp: string; form: () => F } | null) {
  const [form, setForm] = useState<F>(empty);
  const [loadedStamp, setLoadedStamp] = useState<string | null>(null);
  if (source && source.stamp !== loadedStamp) {
    setLoadedStamp(source.stamp);
    setForm(source.form());
  }
  const loaded = (stamp: string, next: F) => {
    setForm(next);
    setLoadedStamp(stamp);
  };
  return { form, setForm, loaded };
}

export interface FormPageGateProps {
  /** The route's id (useRouteId). */
  rawId: string | undefined;
  id: number | null;
  /** The record's query (skipped on the `new` route). */
  query: { isLoading: boolean; error?: unknown };
  /** The spinner's accessible label, e.g. "Loading the order". */
  loadingLabel: string;
  /** Shown for an id that is not one, e.g. "Sales order not found". */
  notFound: string;
  errorText: (error: unknown) => string;
}

/** What a form page shows instead of its form: a spinner while the record loads, the error, or
 * "not found" for a route id that is not a number. Null: show the form. */
export function formPageGate({ rawId, id, query, loadingLabel, notFound, errorText }: FormPageGateProps): ReactNode | null {
  if (id && query.isLoading) return <PageBody><CircularProgress aria-label={loadingLabel} /></PageBody>;
  if (id && query.error) return <PageBody><Alert severity="error">{errorText(query.error)}</Alert></PageBody>;
  if (rawId && !id && rawId !== 'new') return <PageBody><Alert severity="error">{notFound}</Alert></PageBody>;
  return null;
}
