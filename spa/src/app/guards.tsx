import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { getAuthorizationHeader } from '@/lib/auth/token';
import { hasPendingUnauthorizedRedirect } from '@/lib/api/unauthorized';
import { useAppSelector } from '@/lib/session/hooks';
import { landingPath } from '@/lib/session/login';

/** Re-renders on login/logout; the stored authorization header is the source of truth. */
export function useSignedIn(): boolean {
  useAppSelector((s) => s.login.isLoggedIn);
  return getAuthorizationHeader() !== null;
}

/**
 * Protected routes need the stored authorization header, otherwise → / with history replacement.
 * While an unauthorized answer's delayed redirect is pending, the page stays so its toast is read.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  if (!signedIn && !hasPendingUnauthorizedRedirect()) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Sign-in and sign-up: a signed-in user goes to the landing page instead. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  if (signedIn) return <Navigate to={landingPath()} replace />;
  return <>{children}</>;
}
