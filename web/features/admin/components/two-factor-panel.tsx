import { Copy, KeyRound, Loader2 } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { useMemo, useState } from 'react';
import { disableTwoFactorSchema, enableTwoFactorSchema, setupTwoFactorSchema } from '#core/schemas/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { FieldError, Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useDisableTwoFactor, useEnableTwoFactor, useStartTwoFactor, useTwoFactorStatus } from '../api/two-factor';
import { PanelCard } from './panel-card';

/**
 * 'Two-factor sign-in' (docs/product.md §6.1): enrol an authenticator app from a QR code (or the
 * secret typed in) after confirming the password, turn the second factor on with the password and
 * one code, see the recovery codes once, and turn it off with the password and a code. Optional
 * unless the owner requires it for everyone (§6.8): then every text here says "required", as the
 * enrolment gate above it does (two-factor-enrolment.tsx).
 */
export function TwoFactorPanel() {
  const status = useTwoFactorStatus();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled;
  const required = status.data?.required;
  const what = 'sign-in also asks for a code from an authenticator app on your phone.';

  return (
    <PanelCard
      id="two-factor-heading"
      title="Two-factor sign-in"
      icon={KeyRound}
      intro={required === undefined ? `With it on, ${what}` : required ? `Required by the firm for every account: ${what}` : `Optional: ${what}`}
    >
      <CardContent className="space-y-4">
        {status.isPending ? (
          <Loader2 className="h-5 w-5 animate-spin text-brand-700" aria-label="Loading" />
        ) : status.error ? (
          <p className="text-sm text-red-700">Could not load the two-factor status.</p>
        ) : (
          <p className="text-sm">
            Status: <Badge variant={enabled ? 'success' : 'secondary'}>{enabled ? 'On' : 'Off'}</Badge>
          </p>
        )}
        {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}
        {enabled === false && <Enrolment onEnabled={setRecoveryCodes} />}
        {enabled === true && !recoveryCodes && <TurnOff required={required === true} />}
      </CardContent>
    </PanelCard>
  );
}

/** The QR code of an otpauth:// URI as inline SVG (no data: URL, nothing from the network). */
export function QrCode({ value }: { value: string }) {
  const { size, path } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(value);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) if (qr.isDark(row, col)) d += `M${col + 4},${row + 4}h1v1h-1z`;
    }
    return { size: count + 8, path: d };
  }, [value]);
  return (
    <svg viewBox={`0 0 ${size} ${size}`} className="h-48 w-48 bg-white" role="img" aria-label="QR code for your authenticator app" shapeRendering="crispEdges">
      <path d={path} fill="#000" />
    </svg>
  );
}

/** What the password input needs of any of the panel's forms (the form pattern of web/lib/use-schema-form.ts). */
type PasswordForm = Pick<ReturnType<typeof useSchemaForm<{ password: string }, typeof setupTwoFactorSchema>>, 'errors' | 'failure' | 'errorId' | 'field'>;

/**
 * A failed call's messages where they belong: the server's field messages (400, worker/middleware/
 * validate.ts and the two-factor routes) under their inputs (the hook puts them there), anything
 * else (429, 409, offline) for the whole form, and in a toast.
 */
function failed(form: { setFailure: (message: string) => void }, error: unknown, fields: object, fallback: string) {
  if (!Object.keys(fields).length) form.setFailure(errorMessage(error, fallback));
  toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, fallback) });
}

/** An input's ARIA ties to its own message and the form's. */
function describedBy<F extends string>(form: { errors: Partial<Record<F, string>>; failure?: string; errorId: (name: F) => string }, field: F, prefix: string) {
  const ids = [form.errors[field] && form.errorId(field), form.failure && `${prefix}-error`].filter(Boolean);
  return ids.length ? { 'aria-invalid': true, 'aria-describedby': ids.join(' ') } : {};
}

function PasswordInput({ id, form, prefix }: { id: string; form: PasswordForm; prefix: string }) {
  return (
    <div>
      <Label htmlFor={id}>Password</Label>
      <Input id={id} type="password" autoComplete="current-password" {...form.field('password')} className="max-w-72" {...describedBy(form, 'password', prefix)} />
      <FieldError id={`${prefix}-password-error`} message={form.errors.password} />
    </div>
  );
}

function Enrolment({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const start = useStartTwoFactor();
  const enable = useEnableTwoFactor();
  // Asked before the set-up and sent again with the code: the server checks it both times.
  const setup = useSchemaForm({
    id: 'two-factor-setup',
    initial: { password: '' },
    schema: setupTwoFactorSchema,
    submit: async (data) => {
      await start.mutateAsync(data);
      turnOn.setValue('password', data.password);
    },
    onError: (error, fields) => void failed(setup, error, fields, 'Failed to start set-up'),
  });
  const turnOn = useSchemaForm({
    id: 'two-factor-enable',
    initial: { password: '', code: '' },
    schema: enableTwoFactorSchema,
    submit: async (data) => {
      const { recoveryCodes } = await enable.mutateAsync(data);
      turnOn.reset();
      start.reset();
      onEnabled(recoveryCodes);
      toast({ title: 'Two-factor sign-in is on', description: 'Save your recovery codes now: they are shown only once.' });
    },
    onError: (error, fields) => void failed(turnOn, error, fields, 'Failed to turn on two-factor sign-in'),
  });

  if (!start.data) {
    return (
      <form ref={setup.ref} onSubmit={setup.handleSubmit} className="space-y-3" noValidate aria-label="Set up two-factor sign-in">
        <p className="text-sm text-slate-700">Confirm your password to set up an authenticator app.</p>
        <PasswordInput id="two-factor-setup-password" form={setup} prefix="two-factor-setup" />
        <FieldError id="two-factor-setup-error" message={setup.failure} />
        <Button type="submit" variant="outline" disabled={setup.pending}>
          {setup.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          Set up two-factor sign-in
        </Button>
      </form>
    );
  }

  const { secret, otpauthUri } = start.data;
  return (
    <form ref={turnOn.ref} onSubmit={turnOn.handleSubmit} className="space-y-3" noValidate aria-label="Turn on two-factor sign-in">
      <p className="text-sm text-slate-700">Scan this code with an authenticator app (Google Authenticator, 1Password, Authy...), then enter the code it shows.</p>
      <QrCode value={otpauthUri} />
      <p className="text-sm text-slate-700">
        Or enter this key by hand:{' '}
        <code className="break-all rounded bg-slate-100 px-1 font-mono text-sm" data-testid="two-factor-secret">
          {secret.match(/.{1,4}/g)?.join(' ')}
        </code>
      </p>
      <PasswordInput id="two-factor-enable-password" form={turnOn} prefix="two-factor-enable" />
      <div>
        <Label htmlFor="two-factor-enable-code">Code from the app</Label>
        <Input id="two-factor-enable-code" inputMode="numeric" autoComplete="one-time-code" {...turnOn.field('code')} className="max-w-40" {...describedBy(turnOn, 'code', 'two-factor-enable')} />
        <FieldError id="two-factor-enable-code-error" message={turnOn.errors.code} />
      </div>
      <FieldError id="two-factor-enable-error" message={turnOn.failure} />
      <p className="text-sm text-slate-700">Turning it on signs you out everywhere else.</p>
      <Button type="submit" disabled={turnOn.pending}>
        {turnOn.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
        Turn on
      </Button>
    </form>
  );
}

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast({ title: 'Copied', description: 'Recovery codes copied to the clipboard' });
    } catch {
      toast({ variant: 'destructive', title: 'Error', description: 'Could not copy: select the codes and copy them by hand' });
    }
  }
  return (
    <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4" role="region" aria-label="Recovery codes">
      <p className="text-sm text-slate-800">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They will not be shown again.
      </p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={copy}>
          <Copy className="h-4 w-4" aria-hidden="true" />
          Copy codes
        </Button>
        <Button size="sm" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </div>
  );
}

function TurnOff({ required }: { required: boolean }) {
  const disable = useDisableTwoFactor();
  const form = useSchemaForm({
    id: 'two-factor-off',
    initial: { password: '', code: '' },
    schema: disableTwoFactorSchema,
    submit: async (data) => {
      await disable.mutateAsync(data);
      form.reset();
      toast({ title: 'Two-factor sign-in is off' });
    },
    // 'Password or code is incorrect' names both: it is the form's message, tied to both inputs.
    onError: (error, fields) => void failed(form, error, fields, 'Failed to turn off two-factor sign-in'),
  });

  return (
    <form ref={form.ref} onSubmit={form.handleSubmit} className="space-y-3" noValidate aria-label="Turn off two-factor sign-in">
      <p className="text-sm text-slate-700">
        {required
          ? 'The firm requires two-factor sign-in: turn it off only to move to a new phone, and you will set it up again before the admin panel opens. Confirm with your password and a code from the app (or a recovery code).'
          : 'To turn it off, confirm with your password and a code from the app (or a recovery code).'}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <PasswordInput id="two-factor-off-password" form={form} prefix="two-factor-off" />
        <div>
          <Label htmlFor="two-factor-off-code">Authentication code</Label>
          <Input id="two-factor-off-code" inputMode="numeric" autoComplete="one-time-code" {...form.field('code')} {...describedBy(form, 'code', 'two-factor-off')} />
          <FieldError id="two-factor-off-code-error" message={form.errors.code} />
        </div>
      </div>
      <FieldError id="two-factor-off-error" message={form.failure} />
      <Button type="submit" variant="destructive" disabled={form.pending}>
        {form.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
        Turn off
      </Button>
    </form>
  );
}
