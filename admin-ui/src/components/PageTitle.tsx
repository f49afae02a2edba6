import { useEffect, useRef, type ReactNode } from 'react';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Strata Admin`;
  }, [title]);
}

/**
 * The screen's heading. It takes focus when the screen opens so keyboard and screen-reader users start at the
 * new content after an in-app navigation.
 */
export function PageTitle({ title, children }: { readonly title: string; readonly children?: ReactNode }) {
  useDocumentTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page-title">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}
