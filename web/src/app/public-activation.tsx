import {
  ActivationHostContext,
  ActivationPage,
  type ActivationHost,
} from '../features/activation/activation-page';

/** /activate as the public entry shows it (./public-entry.tsx): its own chunk, fetched when shown. */
export default function PublicActivation({ host }: { host: ActivationHost }) {
  return (
    <ActivationHostContext value={host}>
      <ActivationPage />
    </ActivationHostContext>
  );
}
