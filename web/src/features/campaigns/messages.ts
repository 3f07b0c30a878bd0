/** The composer's and template saving's toasts (A §8), chosen from an error's message. */
import { serverMessage } from "@outreach/client/request";

export interface ToastText {
  title: string;
  description: string;
}

function text(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

export function generationError(failure: unknown): ToastText {
  const message = text(failure);
  const detail = serverMessage(failure) ?? message;
  const lower = message.toLowerCase();
  if (message.includes("401") || lower.includes("unauthorized")) {
    return { title: "Login required", description: "Your session has expired. Please refresh the page and log in again." };
  }
  if (lower.includes("quota") || lower.includes("limit")) {
    return { title: "Service limit reached", description: "The AI quota is used up. Please try again later or contact support." };
  }
  if (lower.includes("api key") || lower.includes("openai") || lower.includes("anthropic") || lower.includes("ai service unavailable")) {
    return { title: "AI service unavailable", description: detail };
  }
  if (lower.includes("network") || lower.includes("fetch")) {
    return { title: "Connection error", description: "Please check your internet connection and try again." };
  }
  return { title: "Generation failed", description: detail };
}

export function templateSaveError(failure: unknown): ToastText {
  const message = text(failure);
  const lower = message.toLowerCase();
  if (message.startsWith("401")) return { title: "Login required", description: "You need to be logged in to save templates. Please refresh the page and log in again." };
  if (message.startsWith("500")) return { title: "Server error", description: "Please try again in a moment." };
  if (message.startsWith("403")) return { title: "Access denied", description: "Access denied: You don't have permission to save templates. Please contact support." };
  if (lower.includes("network") || lower.includes("fetch")) return { title: "Connection error", description: "Please check your internet connection and try again." };
  if (message.startsWith("422") || lower.includes("validation") || lower.includes("invalid")) {
    return { title: "Invalid data", description: serverMessage(failure) ?? "Please check your inputs." };
  }
  return { title: "Save failed", description: serverMessage(failure) ?? message };
}
