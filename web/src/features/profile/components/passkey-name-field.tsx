import type { ComponentProps } from 'react';
import { PASSKEY_NAME_MAX } from '../../../../../shared/account';
import { TextField } from '../../../components/form-field';

type PasskeyNameFieldProps = Omit<ComponentProps<typeof TextField>, 'onChange' | 'maxLength'> & {
  onChange: (name: string) => void;
};

/** A passkey's name: at most 64 characters, never filled in from other sites' names. */
export function PasskeyNameField({ onChange, ...field }: PasskeyNameFieldProps) {
  return (
    <TextField
      autoComplete="off"
      maxLength={PASSKEY_NAME_MAX}
      onChange={(event) => onChange(event.target.value)}
      {...field}
    />
  );
}
