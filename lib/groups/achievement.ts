// What a group stands for, in words: its description and criteria as the issuer wrote them, or the
// defaults every credential of the group states when they did not (on the wallet page and, signed, as
// the Open Badges achievement). One place, so the page and the signed document never disagree.

/** The group's description, or "<group name>, awarded by <organization name>." */
export function achievementDescription(group: { name: string; description: string | null }, organization: { name: string }): string {
  return group.description ?? `${group.name}, awarded by ${organization.name}.`;
}

/** The group's criteria, or "Awarded by <organization name>." */
export function achievementCriteria(group: { criteria: string | null }, organization: { name: string }): string {
  return group.criteria ?? `Awarded by ${organization.name}.`;
}
