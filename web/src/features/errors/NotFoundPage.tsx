/** The not-found page (A §2, §8). */
import { Card } from "../../components/ui/card";
import { usePageTitle } from "../../lib/title";

export function NotFoundPage() {
  usePageTitle("Page Not Found");
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="w-full max-w-md">
        <h1 className="mb-2 text-2xl font-bold text-red-600">404 Page Not Found</h1>
        <p className="text-sm text-slate-600">Did you forget to add the page to the router?</p>
        <a className="mt-4 inline-block text-sm text-brand underline" href="/">
          Go to the home page
        </a>
      </Card>
    </main>
  );
}
