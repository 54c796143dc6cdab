// Lints an OpenAPI document with Redocly's rules ("recommended" unless another ruleset is
// named), as `redocly lint --extends <ruleset> --format json` does, through the linter's
// own package (@redocly/openapi-core: 25 MB installed where the whole CLI takes 209 MB).
// Prints {"problems": [{"ruleId", "severity", "message", "pointer"}, ...]}; exits 1 when
// a problem is an error.
//
//   node lint_openapi.js doc.json [ruleset]
"use strict";
const { lint, createConfig } = require("@redocly/openapi-core");

async function main() {
  const [ref, ruleset = "recommended"] = process.argv.slice(2);
  if (!ref) {
    console.error("usage: node lint_openapi.js <document> [ruleset]");
    process.exit(2);
  }
  const config = await createConfig({ extends: [ruleset] });
  const problems = (await lint({ ref, config })).map((problem) => ({
    ruleId: problem.ruleId,
    severity: problem.severity,
    message: problem.message,
    pointer: problem.location.map((where) => where.pointer),
  }));
  console.log(JSON.stringify({ problems }, null, 2));
  process.exit(problems.some((problem) => problem.severity === "error") ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
