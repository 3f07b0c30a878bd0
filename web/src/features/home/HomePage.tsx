/** The entry page at / and /home: what the product does and the way in. */
import { ButtonLink } from "../../components/ui/button";

export function HomePage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 p-6">
      <h1 className="text-4xl font-bold">AI Outreach Agent</h1>
      <p className="text-lg text-slate-700">
        Find real businesses by place or topic, write personalised emails with AI, send them as campaigns and follow
        every open, click and reply.
      </p>
      <div className="flex gap-3">
        <ButtonLink href="/login">Sign In</ButtonLink>
        <ButtonLink variant="outline" href="/auth/google">
          Sign Up
        </ButtonLink>
      </div>
    </main>
  );
}
