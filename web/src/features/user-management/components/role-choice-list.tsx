import { ROLE_GROUPS, type RoleGroup } from '../../../../../shared/constants';
import { roleOfGroup } from '../../../../../shared/roles';
import { ROLE_LABELS } from '../../../lib/role-labels';

const ROLE_HINTS: Record<RoleGroup, string> = {
  users: 'A client who tracks their health with a coach.',
  coaches: 'Works with clients and assessments.',
  admins: 'Manages users and settings.',
};

/** User first: the role most invitations are for. */
const ROLE_ORDER: readonly RoleGroup[] = ['users', 'coaches', 'admins'];

interface RoleChoiceListProps {
  /** One role (the invite form) or any non-empty set of them (Change roles). */
  type: 'radio' | 'checkbox';
  name: string;
  chosen: readonly RoleGroup[];
  onToggle: (group: RoleGroup) => void;
  /** Said under the choices (at least one role, say). */
  hint?: string | undefined;
}

/** The three roles as cards, each with what it is for. */
export function RoleChoiceList({ type, name, chosen, onToggle, hint }: RoleChoiceListProps) {
  return (
    <fieldset className="fieldset" aria-describedby={hint ? `${name}-hint` : undefined}>
      <legend>{type === 'radio' ? 'Role' : 'Roles'}</legend>
      <div className="choice-list">
        {ROLE_ORDER.map((group) => (
          <label key={group} className="choice choice--card">
            <input
              type={type}
              name={name}
              value={group}
              checked={chosen.includes(group)}
              onChange={() => onToggle(group)}
            />
            <span>
              <span className="choice__label">{ROLE_LABELS[roleOfGroup(group)]}</span>
              <span className="choice__hint">{ROLE_HINTS[group]}</span>
            </span>
          </label>
        ))}
      </div>
      {hint && (
        <p id={`${name}-hint`} className="field__hint">
          {hint}
        </p>
      )}
    </fieldset>
  );
}

/** Groups in the order the API lists them (admins, coaches, users). */
export const inGroupOrder = (groups: readonly RoleGroup[]): RoleGroup[] =>
  ROLE_GROUPS.filter((group) => groups.includes(group));
