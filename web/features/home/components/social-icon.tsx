// Brand marks are not in lucide-react; simple single-path glyphs drawn for the four networks.
const paths: Record<string, string> = {
  LinkedIn:
    'M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.5h4V21H3V9.5zM9.5 9.5h3.8v1.6h.05c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.78 2.65 4.78 6.1V21h-4v-5.1c0-1.22-.02-2.78-1.7-2.78-1.7 0-1.96 1.33-1.96 2.7V21h-4V9.5z',
  Instagram:
    'M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm4.9-7.9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2zM12 3c-2.44 0-2.75.01-3.71.05C5.3 3.2 3.2 5.28 3.05 8.29 3.01 9.25 3 9.56 3 12s.01 2.75.05 3.71c.15 3 2.24 5.1 5.24 5.24.96.04 1.27.05 3.71.05s2.75-.01 3.71-.05c3-.14 5.1-2.24 5.24-5.24.04-.96.05-1.27.05-3.71s-.01-2.75-.05-3.71c-.14-3-2.24-5.1-5.24-5.24C14.75 3.01 14.44 3 12 3z',
  Facebook:
    'M13.5 21v-7.5h2.53l.38-2.94H13.5V8.69c0-.85.24-1.43 1.46-1.43h1.56V4.63A20.9 20.9 0 0 0 14.25 4.5c-2.25 0-3.79 1.37-3.79 3.9v2.16H7.92v2.94h2.54V21h3.04z',
  Nextdoor:
    'M12 3.2 2.5 10.3l1.2 1.6L5.5 10.6V20h5v-5.5h3V20h5v-9.4l1.8 1.3 1.2-1.6L12 3.2z',
};

export function SocialIcon({ network, className = 'h-5 w-5' }: { network: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="currentColor" aria-hidden="true" focusable="false">
      <path d={paths[network] ?? paths.Nextdoor} />
    </svg>
  );
}
