// `npm run 2fa:reset -- <email>`: turns two-factor sign-in off for one account, for the only admin
// who lost both the phone and the recovery codes (docs/two-factor.md). Audited (by the system) and
// mailed to the account, as an admin's reset is. With the embedded database, stop the shop first.
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { recordAudit } from '../modules/audit/audit.repo.js';
import { enqueueMailToUser } from '../modules/mail/mail.service.js';
import { twoFactorMail } from '../modules/twofactor/twofactor.mail.js';
import { turnOff } from '../modules/twofactor/twofactor.service.js';
import { CliError, consoleLog, runCli } from './run-cli.js';

await runCli(async () => {
  const email = process.argv[2]?.trim().toLowerCase();
  if (!email) throw new CliError('Usage: npm run 2fa:reset -- <e-mail of the account>');
  const config = loadConfig();
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await handle.db.transaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.email, email)).for('update');
      if (!user) throw new CliError(`No account has the e-mail ${email}`);
      await turnOff(tx, user.id);
      await recordAudit(tx, {
        actor: null,
        action: 'user.two_factor_reset',
        targetType: 'user',
        targetId: user.id,
        after: { twoFactorEnabled: false, mailedTo: user.email, by: 'npm run 2fa:reset' },
      });
      await enqueueMailToUser(tx, user.id, twoFactorMail(user, 'admin-reset', base));
    });
    consoleLog.info(`Two-factor sign-in is off for ${email}; they can log in with the password alone.`);
  } finally {
    await handle.close();
  }
});
