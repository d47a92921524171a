/** Where the profile's Security section is: two-factor, recovery codes and one's own sessions. */
export const SECURITY_SECTION_ID = 'security';
export const PROFILE_SECURITY = { pathname: '/profile', hash: `#${SECURITY_SECTION_ID}` } as const;
