import { CM_PER_FOOT, CM_PER_INCH } from './constants';

/** Centimetres for a height in feet and inches, rounded to one decimal. */
export const feetInchesToCm = (feet: number, inches: number): number =>
  Math.round((feet * CM_PER_FOOT + inches * CM_PER_INCH) * 10) / 10;

/** Whole feet and inches for a height in centimetres (inches rounded, 12 carried into a foot). */
export const cmToFeetInches = (cm: number): { feet: number; inches: number } => {
  const totalInches = Math.round(cm / CM_PER_INCH);
  return { feet: Math.floor(totalInches / 12), inches: totalInches % 12 };
};
