/** The product name shown in the header, the auth screens and the browser tab. */
export const APP_NAME = 'Metabolic Coaching';
