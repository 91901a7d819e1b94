// A server's import runner in a process of its own, for the SIGKILL test (lib/imports/runner.kill.test.ts):
// runs confirmed imports of DATABASE_URL as the background loop does, printing each pass's count, until it
// is killed.
import { runImportJobs } from "../../lib/imports/runner";

for (;;) {
  const processed = await runImportJobs();
  console.log(JSON.stringify({ processed }));
  if (processed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
}
