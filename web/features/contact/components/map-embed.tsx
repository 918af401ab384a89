import { MapPin } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { hasConsent } from '../../../lib/consent';

/**
 * The office map. Its box has a fixed aspect ratio from the first paint, so nothing moves when the
 * frame arrives. The Google frame (third-party, sets its own cookies) loads only when it comes near
 * the viewport AND the visitor has accepted cookies, or when they ask for it with the button.
 */
export function MapEmbed({ firmName, addressLine: firmAddressLine, mapEmbed, mapLink }: { firmName: string; addressLine: string; mapEmbed: string; mapLink: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState(false);

  useEffect(() => {
    if (load || !hasConsent()) return;
    const element = box.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setLoad(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setLoad(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [load]);

  return (
    <div ref={box} className="relative aspect-[4/3] w-full overflow-hidden rounded-md border border-slate-200 bg-slate-100" data-testid="map-embed">
      {load ? (
        <iframe
          title={`Map: ${firmName}, ${firmAddressLine}`}
          src={mapEmbed}
          className="absolute inset-0 h-full w-full border-0"
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
          allowFullScreen
        />
      ) : (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center">
          <MapPin className="h-8 w-8 text-brand-700" aria-hidden="true" />
          <p className="text-sm text-slate-700">{firmAddressLine}</p>
          <div className="flex flex-wrap justify-center gap-2">
            <button type="button" onClick={() => setLoad(true)} className="rounded-md bg-brand-700 px-3 py-2 text-sm font-medium text-white hover:bg-brand-800">
              Show map
            </button>
            <a href={mapLink} target="_blank" rel="noopener noreferrer" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
              Open in Google Maps
            </a>
          </div>
          <p className="text-xs text-slate-600">The map is provided by Google.</p>
        </div>
      )}
    </div>
  );
}
