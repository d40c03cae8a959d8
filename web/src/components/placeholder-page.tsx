import { PageHeader } from './page-header';

interface PlaceholderPageProps {
  title: string;
  description: string;
}

/** A page the product names but does not build yet (SPEC: "Many pages are placeholders"). */
export function PlaceholderPage({ title, description }: PlaceholderPageProps) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <section className="card">
        <p className="badge badge--neutral">Coming soon</p>
        <p className="muted">This page is not available yet. We will let you know when it is ready.</p>
      </section>
    </>
  );
}
