/** "<path.to.field>: <message>" of the first issue ("(root)" when the value itself is wrong). */
export function firstIssue(error) {
    const issue = error.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
    return `${where}: ${issue?.message ?? "invalid"}`;
}
//# sourceMappingURL=schema-issue.js.map