import type { IdGenerator } from "../ports/id-generator.js";
import { classifyEngagement, type EngagementKind } from "./machine-engagement.js";
import { firstMarks, IP_MAX, USER_AGENT_MAX, type Engagement, type TrackedSend } from "./model.js";

/** A request to a tracking URL, as the public routes see it. */
export interface TrackingRequest {
  readonly token: string;
  readonly method: string;
  readonly userAgent: string | null;
  readonly ip: string | null;
  /** The address is in a mail security gateway's network (matched by the host). */
  readonly fromScannerNetwork: boolean;
}

/** The classified event one request to a tracking URL records on its send. */
export function engagementOf(send: TrackedSend, kind: EngagementKind, url: string | null, request: TrackingRequest, at: Date, ids: IdGenerator): Engagement {
  const verdict = classifyEngagement({
    kind,
    method: request.method,
    userAgent: request.userAgent,
    fromScannerNetwork: request.fromScannerNetwork,
    at,
    sentAt: send.sentAt,
    deliveredAt: send.deliveredAt,
  });
  return {
    id: ids.next("eev"),
    companyId: send.companyId,
    sendId: send.id,
    kind,
    at,
    url,
    userAgent: request.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    ip: request.ip?.slice(0, IP_MAX) ?? null,
    machine: verdict.machine,
    machineReason: verdict.reason,
    marks: firstMarks(kind, verdict.machine, send.openTracking),
  };
}
