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

interface UserSearchProps {
  /** With the email prefix to search for, '' for no search. */
  onSearch: (q: string) => void;
}

/** 'Search by email': a prefix of the address, sent once typing pauses (or on Enter). */
export function UserSearch({ onSearch }: UserSearchProps) {
  const [text, setText] = useState('');
  const { q, error } = searchOf(text);

  useEffect(() => {
    if (q === undefined) return undefined;
    const timer = window.setTimeout(() => onSearch(q), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [q, onSearch]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (q !== undefined) onSearch(q);
  };

  return (
    <form role="search" className="user-search" onSubmit={submit}>
      <TextField
        id="user-search"
        label="Search by email"
        type="search"
        inputMode="email"
        autoComplete="off"
        spellCheck={false}
        maxLength={254}
        value={text}
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
