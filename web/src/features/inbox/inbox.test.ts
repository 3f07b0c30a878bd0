import { describe, expect, it } from "vitest";
import { NO_FILTERS, keyAction, labelName, messageName, moved, threadsPath } from "./rules";

describe("the inbox list's address", () => {
  it("is the bare path without filters", () => {
    expect(threadsPath(NO_FILTERS)).toBe("/api/inbox/threads");
  });
  it("names each filter that is set, done as its own list, and the cursor", () => {
    expect(threadsPath({ ...NO_FILTERS, view: "awaiting", campaignId: "4", label: "meeting_booked", q: " 50% off " }, "17.3")).toBe(
      "/api/inbox/threads?filter=awaiting&campaignId=4&label=meeting_booked&q=50%25+off&cursor=17.3",
    );
    expect(threadsPath({ ...NO_FILTERS, view: "done", senderId: "2" })).toBe("/api/inbox/threads?done=true&senderId=2");
  });
});

describe("a conversation's messages", () => {
  it("are named by kind and number", () => {
    expect(messageName({ kind: "first", step: null })).toBe("First email");
    expect(messageName({ kind: "follow_up", step: 2 })).toBe("Follow-up #2");
    expect(messageName({ kind: "answer", step: 1 })).toBe("Answer #1");
    expect(messageName({ kind: "reply", step: null })).toBe("Reply");
    expect(messageName({ kind: "auto_reply", step: null })).toBe("Automatic reply");
  });
  it("labels read as words", () => {
    expect(labelName("meeting_booked")).toBe("Meeting booked");
    expect(labelName(null)).toBeNull();
  });
});

describe("the inbox's keyboard", () => {
  const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...extra });
  it("maps j, k, Enter, r, e and u", () => {
    expect(["j", "k", "Enter", "r", "e", "u", "x"].map((k) => keyAction(key(k), null))).toEqual(["next", "previous", "open", "reply", "done", "unread", null]);
  });
  it("does nothing while typing or with a modifier", () => {
    const field = document.createElement("textarea");
    expect(keyAction(key("j"), field)).toBeNull();
    expect(keyAction(key("r", { ctrlKey: true }), null)).toBeNull();
    const search = document.createElement("input");
    search.type = "search";
    expect(keyAction(key("j"), search)).toBeNull();
    expect(keyAction(key("e"), document.createElement("select"))).toBeNull();
    // jsdom has no isContentEditable: the browser's answer for an editor's root.
    const editable = Object.defineProperty(document.createElement("div"), "isContentEditable", { value: true });
    expect(keyAction(key("u"), editable)).toBeNull();
  });
  it("works with the focus on a tab, a list item or a checkbox, where Enter stays the control's own (issue 83.9)", () => {
    const tab = document.createElement("button");
    tab.setAttribute("role", "tab");
    expect(keyAction(key("j"), tab)).toBe("next");
    expect(keyAction(key("r"), tab)).toBe("reply");
    expect(keyAction(key("Enter"), tab)).toBeNull();
    const checkbox = document.createElement("input");
    checkbox.type = "checkbox";
    expect(keyAction(key("e"), checkbox)).toBe("done");
    const link = document.createElement("a");
    link.href = "/campaign-details/1";
    expect(keyAction(key("k"), link)).toBe("previous");
    expect(keyAction(key("Enter"), link)).toBeNull();
  });
  it("moves within the list", () => {
    expect(moved(0, "previous", 3)).toBe(0);
    expect(moved(1, "next", 3)).toBe(2);
    expect(moved(2, "next", 3)).toBe(2);
    expect(moved(-1, "next", 0)).toBe(-1);
  });
});
