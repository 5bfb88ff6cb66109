import { ContainerModule } from "inversify";
import { KnexSequenceRepository } from "../../adapters/knex/repositories/sequence-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { ArchiveSequence } from "../../core/sequences/archive-sequence.js";
import { CreateSequence } from "../../core/sequences/create-sequence.js";
import { DeleteSequence } from "../../core/sequences/delete-sequence.js";
import { DuplicateSequence } from "../../core/sequences/duplicate-sequence.js";
import { GetSequence } from "../../core/sequences/get-sequence.js";
import { ListSequences } from "../../core/sequences/list-sequences.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { SetSequenceStatus } from "../../core/sequences/set-sequence-status.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { UpdateSequence } from "../../core/sequences/update-sequence.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Sequences and their graphs: the repository and its use cases (the engine that runs them comes later). */
export const sequencesModule = new ContainerModule((container) => {
  bindClass(container, KnexSequenceRepository, [Database]);
  container.bind<SequenceRepository>(SequenceRepository).toService(KnexSequenceRepository);
  bindClass(container, ListSequences, [SequenceRepository]);
  bindClass(container, GetSequence, [SequenceRepository]);
  bindClass(container, CreateSequence, [SequenceRepository, IdGenerator, Clock, BaseUrl]);
  bindClass(container, UpdateSequence, [SequenceRepository, IdGenerator, Clock]);
  bindClass(container, DeleteSequence, [SequenceRepository]);
  bindClass(container, ArchiveSequence, [SequenceRepository, Clock]);
  bindClass(container, DuplicateSequence, [SequenceRepository, IdGenerator, Clock]);
  bindClass(container, SetSequenceStatus, [SequenceRepository, ResolveSender, Clock]);
});
