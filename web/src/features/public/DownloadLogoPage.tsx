/** Download Logo (B §2.18, §9): the logo standard and at 120×120, downloadable as SVG and as a 120×120 PNG made in
 * the browser from the same SVG file. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import logoSvg from "../../../public/logo.svg?raw";
import { PublicPage } from "./PublicLayout";
import { usePageTitle } from "../../lib/title";

export const LOGO_SIZE = 120;

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Rasterises the SVG onto a square canvas. */
async function svgToPng(svg: string, size: number): Promise<Blob> {
  const image = new Image(size, size);
  const source = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    image.src = source;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    canvas.getContext("2d")!.drawImage(image, 0, 0, size, size);
    return await new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("PNG export failed"))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(source);
  }
}

export function DownloadLogoPage() {
  usePageTitle("Download Logo");
  const [error, setError] = useState<string | null>(null);
  const downloadPng = async () => {
    setError(null);
    try {
      download(await svgToPng(logoSvg, LOGO_SIZE), "outreach-logo-120x120.png");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "PNG export failed");
    }
  };
  return (
    <PublicPage>
      <div className="mx-auto max-w-3xl space-y-8">
        <h1 className="text-4xl font-bold">Download Logo</h1>
        <div className="grid gap-6 sm:grid-cols-2">
          <figure className="flex flex-col items-center rounded-xl border border-slate-200 bg-white p-6">
            <img src="/logo.svg" alt="Outreach logo" width="240" height="240" className="h-60 w-60" />
            <figcaption className="mt-3 text-sm text-slate-600">Standard</figcaption>
          </figure>
          <figure className="flex flex-col items-center justify-center rounded-xl border border-slate-200 bg-white p-6">
            <img src="/logo.svg" alt="Outreach logo, 120 by 120 pixels" width={LOGO_SIZE} height={LOGO_SIZE} />
            <figcaption className="mt-3 text-sm text-slate-600">120 × 120 px</figcaption>
          </figure>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => void downloadPng()}>Download PNG (120×120)</Button>
          <Button variant="outline" onClick={() => download(new Blob([logoSvg], { type: "image/svg+xml" }), "outreach-logo.svg")}>
            Download SVG
          </Button>
        </div>
        {error ? <p role="alert" className="text-red-600">{error}</p> : null}
        <section aria-labelledby="oauth-title" className="rounded-xl bg-blue-50 p-5">
          <h2 id="oauth-title" className="font-semibold">
            For Google OAuth verification
          </h2>
          <p className="mt-1 text-slate-700">
            Google asks for a square PNG logo under 1 MB; the 120×120 PNG above meets both requirements.
          </p>
        </section>
      </div>
    </PublicPage>
  );
}
