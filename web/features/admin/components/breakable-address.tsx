import { Fragment } from 'react';

/**
 * An e-mail address (or a host name) that may wrap only at its natural seams: after the @ and after
 * each dot, colon, plus, underscore or hyphen. Ordinary words around it never break inside; the address
 * breaks where a reader expects it to, rather than between any two letters (`break-all`).
 */
export function BreakableAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=[@.:+_-])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
