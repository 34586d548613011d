// Schema-driven cases for every operation (`certify --fuzz N`): N signed requests drawn from the
// operation's schemas, valid and invalid. A valid request never gets a 5xx and gets a declared status
// with a conforming envelope; an invalid one gets a 4xx error envelope. A failure is shrunk to the
// smallest case that still fails the same way and names the seed that reproduces it.
// Safety: operations that move funds, sign, delete or mint credentials get only invalid cases, with
// ids nobody has, unless --allow-writes (test networks and sandboxes only).

export { isGuarded } from "./guarded.ts";
export { judgeAnswer } from "./one-case.ts";
export { type FuzzOptions, fuzzChecks } from "./operation-checks.ts";
