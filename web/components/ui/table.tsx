import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';

// Admin-only primitives: a plain, horizontally scrollable table.
//
// Its words never break inside (docs/product.md "Tables a person reads"). The admin screens wrap
// long words anywhere so nothing overflows at 320 px ([overflow-wrap:anywhere] on their <section>);
// inside a table that lets the browser shrink a column below its longest word ("store/d",
// "Messag/es"). The table sets overflow-wrap back to break-word, which does not count in a column's
// smallest width: columns wrap at spaces, an address at its seams (BreakableAddress), and a table
// wider than the screen scrolls sideways in its own box.
export function Table({ className = '', ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={`w-full caption-bottom text-sm [overflow-wrap:break-word] ${className}`} {...props} />
    </div>
  );
}

export function TableHeader(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className="border-b border-slate-200 bg-slate-50" {...props} />;
}

export function TableBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className="divide-y divide-slate-100" {...props} />;
}

export function TableRow({ className = '', ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={`hover:bg-slate-50 ${className}`} {...props} />;
}

export function TableHead({ className = '', ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`h-10 px-3 text-left align-middle font-semibold text-slate-700 ${className}`} {...props} />;
}

export function TableCell({ className = '', ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-middle text-slate-800 ${className}`} {...props} />;
}

/**
 * The wide-screen form of an admin list (md and up; a card list stands in below): a labelled table
 * with one header cell per column and `children` as its body rows.
 */
export function WideTable({ label, columns, children }: { label: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="hidden rounded-lg border border-slate-200 bg-white md:block">
      <Table aria-label={label}>
        <TableHeader>
          <tr>
            {columns.map((column) => (
              <TableHead key={column}>{column}</TableHead>
            ))}
          </tr>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}
