import type { HTMLAttributes } from 'react';

// Admin-only primitive: a grey placeholder block while data loads.
export function Skeleton({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={`animate-pulse rounded-md bg-slate-200 ${className}`} {...props} />;
}
