import type { HTMLAttributes } from 'react';

// Admin-only primitive.
const variants = {
  default: 'border-transparent bg-brand-700 text-white',
  secondary: 'border-transparent bg-slate-100 text-slate-800',
  outline: 'border-slate-300 text-slate-800',
  success: 'border-transparent bg-emerald-100 text-emerald-900',
  warning: 'border-transparent bg-amber-100 text-amber-900',
  destructive: 'border-transparent bg-red-700 text-white',
} as const;

export type BadgeVariant = keyof typeof variants;

export function Badge({ variant = 'default', className = '', ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      data-badge-variant={variant}
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold ${variants[variant]} ${className}`}
      {...props}
    />
  );
}
