/** Spec section 8 (company settings) and section 5 (the validation-error toast). */
export const MSG = {
  created: 'Company settings created successfully',
  updated: 'Company settings updated successfully',
  createFailed: 'Failed to create company settings',
  updateFailed: 'Failed to update company settings',
  uploadFailed: 'Failed to upload logo',
  validation: 'Validation error: The data format is incorrect. Please check all fields.',
} as const;

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
