import { useNavigate } from 'react-router';
import { MESSAGES } from '../../../../shared/messages';
import { AuthLayout } from '../../components/auth-layout';
import { paths } from '../../config/paths';

export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <AuthLayout title={MESSAGES.accessDenied} subtitle="Your account does not have access to that page.">
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => void navigate(paths.dashboard)}
      >
        Go to Dashboard
      </button>
    </AuthLayout>
  );
}
