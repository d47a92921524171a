import { z } from 'zod';
import { POLICY_ACTIONS } from '../define';

/** What the authorization calls answer (the actions of common/contract/roles.ts and users.ts): the policy catalogue, a user's policies and the caller's own. */

/** What a policy allows on one resource. */
export const policyAnswer = z.object({
  resource: z.string(),
  actions: z.array(z.enum(POLICY_ACTIONS)),
});

/** `GET /authorization/policies`: the resources policies speak of, and every action. */
export const policyCatalogue = z.object({
  resources: z.array(
    z.object({
      resource: z.string(),
      /** As the role's policy matrix shows it. */
      label: z.string(),
      /** The actions that make sense for it. */
      actions: z.array(z.enum(POLICY_ACTIONS)),
    }),
  ),
  actions: z.array(z.enum(POLICY_ACTIONS)),
});

/** `GET|POST /authorization/policies/{userId}`: a user's role policies, own policies, and what they add up to. */
export const userPolicies = z.object({
  userId: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  isAdmin: z.boolean(),
  /** What the user's role allows (resources it allows nothing on are left out). */
  role: z.array(policyAnswer),
  /** The user's own policies, each replacing the role's for its resource (an entry with no action takes the resource away). */
  user: z.array(policyAnswer),
  /** What the user may do. */
  effective: z.array(policyAnswer),
});

/** `GET /authorization/user/policies`: what the caller may do. */
export const ownPolicies = z.object({
  /** An admin role holds every policy. */
  isAdmin: z.boolean(),
  policies: z.array(policyAnswer),
});
