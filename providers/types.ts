/** Shapes of the API's contract that the console reads (docs/api.md). */

export interface NavChild {
  id?: string;
  title: string;
  url?: string;
  icon?: string;
  /** Some servers nest one level deeper: the first grandchild's url is then the landing page. */
  children?: NavChild[];
}

export interface NavGroup {
  id?: string;
  title: string;
  type?: string;
  icon?: string;
  url?: string;
  children?: NavChild[];
}

/** The stored session user (spec section 3), kept in localStorage under `user`. */
export interface SessionUser {
  id?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  companyId?: string;
  companyName?: string;
  companyHostname?: string;
  roleId?: string;
  roleName?: string;
  isAdmin?: boolean;
  accessToken?: string;
  token?: string;
  ga_user_id?: string;
  auth?: boolean;
  requireOTP?: boolean;
  setupOTP?: boolean;
  otpEnabled?: boolean;
  expiresAt?: string;
  navItems?: { userNavItemJson?: { items?: NavGroup[] } };
  impersonator?: { id: string; email: string; name: string } | null;
}

export interface ApiMessage {
  message?: string;
}
