import { ContainerModule } from "inversify";
import { KnexSegmentRepository } from "../../adapters/knex/repositories/segment-repository.js";
import { KnexSegmentEvaluator } from "../../adapters/knex/knex-segment-evaluator.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { CountSegment } from "../../core/segments/count-segment.js";
import { CreateSegment } from "../../core/segments/create-segment.js";
import { DeleteSegment } from "../../core/segments/delete-segment.js";
import { ListSegments } from "../../core/segments/list-segments.js";
import { SegmentEvaluator, SegmentRepository } from "../../core/segments/ports.js";
import { UpdateSegment } from "../../core/segments/update-segment.js";
import { token } from "../../core/shared/token.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Where the segment reference errors point: this server's API description, whose segment routes state the limits. */
export const segmentDocsUrl = (baseUrl: string): string => `${baseUrl}/api/v1/openapi.json`;
const SegmentDocsUrl = token<string>("lifecycle.SegmentDocsUrl");

/** Segments: repositories, use cases, job handlers. */
export const segmentsModule = new ContainerModule((container) => {
  bindClass(container, KnexSegmentRepository, [Database]);
  container.bind<SegmentRepository>(SegmentRepository).toService(KnexSegmentRepository);
  bindClass(container, KnexSegmentEvaluator, [Database]);
  container.bind<SegmentEvaluator>(SegmentEvaluator).toService(KnexSegmentEvaluator);

  bindFactory(container, SegmentDocsUrl, (baseUrl: string) => segmentDocsUrl(baseUrl), [BaseUrl]);
  bindClass(container, CreateSegment, [SegmentRepository, SegmentEvaluator, IdGenerator, Clock, SegmentDocsUrl]);
  bindClass(container, UpdateSegment, [SegmentRepository, SegmentEvaluator, IdGenerator, Clock, SegmentDocsUrl]);
  bindClass(container, CountSegment, [SegmentRepository, SegmentEvaluator, Clock, SegmentDocsUrl]);
  bindClass(container, ListSegments, [SegmentRepository, SegmentEvaluator, Clock]);
  bindClass(container, DeleteSegment, [SegmentRepository]);
});
