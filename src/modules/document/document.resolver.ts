import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, mapNodes } from '../../kernel/connection';
import type { Ctx } from '../../kernel/context';
import type { DocumentEntityType } from '../../kernel/documents';
import { templateFilePath, type TemplateJson } from './document.json';
import { PdfEntityTypeEnum, PdfTemplateFieldInput, PdfTemplateConnectionType, PdfTemplateType } from './document.types';
import { deleteTemplate, getTemplate, templatesConnection, updateTemplate } from './template.service';

/** The GraphQL form adds the file's download URL. */
function shape(ctx: Ctx, t: TemplateJson): PdfTemplateType {
  return { ...t, fileUrl: `${ctx.deps.config.publicUrl}${templateFilePath(t.companyID, t.entityType, t.entityID)}` };
}

/** Template metadata; files go up and down over REST (multipart upload, PDF download). */
@Resolver()
export class DocumentResolver {
  @Query(() => PdfTemplateConnectionType, {
    nullable: true,
    description: "The company's PDF templates of one entity type, oldest first (pdf.read).",
  })
  async pdfTemplates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return mapNodes(await templatesConnection(ctx, companyID, entityType, page), 'pdfTemplates', (t) => shape(ctx, t));
  }

  @Query(() => PdfTemplateType, { nullable: true, description: 'The PDF template of one gift card or subscription (pdf.read).' })
  async pdfTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
  ): Promise<PdfTemplateType> {
    return shape(ctx, await getTemplate(ctx, companyID, entityType, entityID));
  }

  @Mutation(() => PdfTemplateType, {
    description: "Replaces a template's fields (pdf.write); the file is replaced over REST (PATCH, multipart).",
  })
  async updatePdfTemplateFields(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
    @Arg('fields', () => [PdfTemplateFieldInput], { description: 'Every field of the template, in drawing order.' })
    fields: PdfTemplateFieldInput[],
  ): Promise<PdfTemplateType> {
    // Input objects become plain values, checked exactly as the REST `fields` part is.
    const plain = fields.map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null && v !== undefined)));
    return shape(ctx, await updateTemplate(ctx, companyID, entityType, entityID, async () => ({ fields: plain })));
  }

  @Mutation(() => Boolean, { description: 'Deletes a template and its file (pdf.write); the entity then prints the default document.' })
  async deletePdfTemplate(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: 'The company.' }) companyID: string,
    @Arg('entityType', () => PdfEntityTypeEnum, { description: 'gift_card or membership.' }) entityType: DocumentEntityType,
    @Arg('entityID', () => ID, { description: 'The gift card or subscription.' }) entityID: string,
  ): Promise<boolean> {
    await deleteTemplate(ctx, companyID, entityType, entityID);
    return true;
  }
}
