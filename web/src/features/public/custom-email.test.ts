import { describe, expect, it } from "vitest";
import { isPublicSendingDomain, systemAddress } from "./CustomEmailPage";

describe("custom email setup (B §2.18)", () => {
  it("offers a system address only on a sending domain mail can come from (issue 33.4)", () => {
    expect(isPublicSendingDomain("hello.acme.test")).toBe(true);
    expect(isPublicSendingDomain("mail.bakery.example")).toBe(true);
    for (const domain of ["hello.127.0.0.1", "hello.localhost", "hello.[::1]", "hello.app.localhost", "hello.box.internal"]) {
      expect(isPublicSendingDomain(domain), domain).toBe(false);
    }
    expect(systemAddress({ firstName: "Grace", email: "g@x.example" }, "hello.acme.test")).toBe("grace@hello.acme.test");
  });
});
