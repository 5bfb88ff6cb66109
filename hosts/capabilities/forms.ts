import { ContainerModule } from "inversify";
import { KnexFormRepository } from "../../adapters/knex/repositories/form-repository.js";
import { CreateForm } from "../../core/forms/create-form.js";
import { FormReferences } from "../../core/forms/form-references.js";
import { GetFormEmbed } from "../../core/forms/get-form-embed.js";
import { ListForms } from "../../core/forms/list-forms.js";
import { FormRepository } from "../../core/forms/ports.js";
import { SubmitForm } from "../../core/forms/submit-form.js";
import { UpdateForm } from "../../core/forms/update-form.js";
import { ListRepository } from "../../core/lists/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { CreateSubscriber } from "../../core/subscribers/create-subscriber.js";
import { TagRepository } from "../../core/tags/ports.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Signup forms: the repository, the API's use cases and the public submission. */
export const formsModule = new ContainerModule((container) => {
  bindClass(container, KnexFormRepository, [Database]);
  container.bind<FormRepository>(FormRepository).toService(KnexFormRepository);
  bindClass(container, FormReferences, [ListRepository, TagRepository]);
  bindClass(container, CreateForm, [FormRepository, FormReferences, RandomTokens, Clock, BaseUrl]);
  bindClass(container, ListForms, [FormRepository, BaseUrl]);
  bindClass(container, UpdateForm, [FormRepository, FormReferences, Clock, BaseUrl]);
  bindClass(container, GetFormEmbed, [FormRepository, BaseUrl]);
  bindClass(container, SubmitForm, [FormRepository, ListRepository, TagRepository, CreateSubscriber]);
});
