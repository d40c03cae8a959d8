/**
 * An email address in a table: a column short of room may break it after its '@', and (from 48em, where
 * each part keeps to one line) nowhere else, not at a hyphen or a dot. Under 48em each part wraps as
 * text does, and a card's email cell may break it anywhere (`.table--stack .table__email`).
 */
export function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@') + 1;
  return (
    <>
      <span className="email__part">{address.slice(0, at)}</span>
      <wbr />
      <span className="email__part">{address.slice(at)}</span>
    </>
  );
}
