import { Slot } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';

const variants = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800',
  accent: 'bg-accent-400 text-brand-900 hover:bg-accent-500',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
  ghost: 'text-slate-700 hover:bg-slate-100',
  destructive: 'bg-red-700 text-white hover:bg-red-800',
} as const;

const sizes = { sm: 'h-9 px-3 text-sm', md: 'h-10 px-4 text-sm', lg: 'h-12 px-6 text-base' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Render the child element (e.g. a router Link) with the button's look. */
  asChild?: boolean;
  /** A leading icon at the text's size, hidden from assistive technology (not with asChild). */
  icon?: LucideIcon;
}

export function buttonClass(variant: keyof typeof variants = 'primary', size: keyof typeof sizes = 'md', extra = '') {
  return `inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors disabled:pointer-events-none disabled:opacity-50 ${variants[variant]} ${sizes[size]} ${extra}`;
}

export function Button({ variant = 'primary', size = 'md', asChild, className = '', type, icon: Icon, children, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : 'button';
  return (
    <Component className={buttonClass(variant, size, className)} type={asChild ? undefined : (type ?? 'button')} {...props}>
      {Icon ? (
        <>
          <Icon className="h-4 w-4" aria-hidden="true" />
          {children}
        </>
      ) : (
        children
      )}
    </Component>
  );
}

/**
 * A form's submit button: disabled while the form is `pending`, and saying so (`busy`, e.g.
 * "Sending..."), else showing its label.
 */
export function SubmitButton({ pending, busy, disabled, children, ...props }: Omit<ButtonProps, 'type'> & { pending: boolean; busy: string }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? busy : children}
    </Button>
  );
}
