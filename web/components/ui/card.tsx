import type { HTMLAttributes } from 'react';

/**
 * The card's padding is a prop of its own, not part of className: Tailwind orders its utilities by
 * kind, not by the order of the classes, so a `p-3` in className could never win over a default
 * `p-6`. A card that needs other padding passes `padding`.
 */
type CardPartProps = HTMLAttributes<HTMLDivElement> & { padding?: string };

export function Card({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`rounded-lg border border-slate-200 bg-white shadow-sm ${className}`} {...props} />;
}

export function CardHeader({ className = '', padding = 'p-6', ...props }: CardPartProps) {
  return <div className={`flex flex-col gap-1.5 ${padding} ${className}`} {...props} />;
}

export function CardContent({ className = '', padding = 'p-6 pt-0', ...props }: CardPartProps) {
  return <div className={`${padding} ${className}`} {...props} />;
}
