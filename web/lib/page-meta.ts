import { useEffect } from 'react';
import { firm } from '../content/firm';

/** Sets the document title and meta description for the current page. */
export function usePageMeta({ title, description }: { title: string; description: string }) {
  useEffect(() => {
    document.title = `${title} | ${firm.name}`;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description;
  }, [title, description]);
}
