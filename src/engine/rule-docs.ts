/** Where a rule's documentation page lives, relative to the package root (`chainnode rules explain ID` prints it). */
export const docsPath = (ruleId: string) => `docs/rules/${ruleId}.md`
