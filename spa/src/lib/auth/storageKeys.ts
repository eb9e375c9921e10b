/** Keys the SPA keeps in window.localStorage (spec section 3: token, username, user_role, selected assets). */
export const STORAGE_KEYS = {
  token: 'token',
  username: 'username',
  userRole: 'user_role',
  userName: 'user_name',
  selectedTrucks: 'selected_company_assets',
} as const;
