import { Link } from 'react-router';

export interface AuthLinkItem {
  to: string;
  label: string;
}

/** The quiet links under a form ("Forgot password?", "Back to sign-in", ...). */
export function AuthLinks({ links }: { links: AuthLinkItem[] }) {
  return (
    <ul className="auth-links">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
        </li>
      ))}
    </ul>
  );
}
