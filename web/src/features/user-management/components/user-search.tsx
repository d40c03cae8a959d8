import { useEffect, useState, type FormEvent } from 'react';
import { DIRECTORY_MESSAGES, emailPrefixSchema } from '../../../../../shared/directory';
import { TextField } from '../../../components/form-field';

/** How long typing pauses before the lists are read for it. */
export const SEARCH_DELAY_MS = 250;

/** The search the field asks for ('' for everyone, else the lowercased prefix), or why there is none. */
const searchOf = (text: string): { q: string; error?: undefined } | { q?: undefined; error: string } => {
  if (!text.trim()) return { q: '' };
  const parsed = emailPrefixSchema.safeParse(text);
  return parsed.success
    ? { q: parsed.data }
    : { error: parsed.error.issues[0]?.message ?? DIRECTORY_MESSAGES.search };
};

/** The input of an email search field: a prefix of an address, as long as an address may be. */
export const EMAIL_SEARCH_INPUT = {
  type: 'search',
  inputMode: 'email',
  autoComplete: 'off',
  spellCheck: false,
  maxLength: 254,
} as const;

/**
 * An email search field's text: `onSearch` gets the email prefix to search for ('' for no search)
 * once typing pauses, or at once with `flush` (on Enter); a text that is no prefix gets `error`.
 */
export function useEmailSearch(onSearch: (q: string) => void) {
  const [text, setText] = useState('');
  const { q, error } = searchOf(text);

  useEffect(() => {
    if (q === undefined) return undefined;
    const timer = window.setTimeout(() => onSearch(q), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [q, onSearch]);

  const flush = () => {
    if (q !== undefined) onSearch(q);
  };

  return { text, setText, error, flush };
}

interface UserSearchProps {
  /** With the email prefix to search for, '' for no search. */
  onSearch: (q: string) => void;
}

/** 'Search by email': a prefix of the address, sent once typing pauses (or on Enter). */
export function UserSearch({ onSearch }: UserSearchProps) {
  const { text, setText, error, flush } = useEmailSearch(onSearch);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    flush();
  };

  return (
    <form role="search" className="user-search" onSubmit={submit}>
      <TextField
        id="user-search"
        label="Search by email"
        {...EMAIL_SEARCH_INPUT}
        value={text}
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
